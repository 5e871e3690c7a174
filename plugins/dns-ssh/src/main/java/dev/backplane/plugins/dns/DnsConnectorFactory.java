package dev.backplane.plugins.dns;

import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.FixedConnectorFactory;
import dev.backplane.plugins.ssh.SshCredential;
import java.util.List;

/**
 * A BIND 9 DNS server reached over SSH ({@code dns-ssh-9.x}, product {@code bind}, port 22): the
 * credential is an SSH login ({@link SshCredential}), the target pins the server's host key and may
 * set where BIND's files and ports are ({@link BindTarget}).
 */
public final class DnsConnectorFactory extends FixedConnectorFactory {

    static final String IMPL_ID = "dns-ssh";
    static final String VERSION = "9.x";
    static final String PRODUCT = "bind";
    static final int DEFAULT_PORT = 22;

    private static final ConnectorDescriptor DESCRIPTOR = new ConnectorDescriptor(IMPL_ID, VERSION,
            List.of(new ConnectorDescriptor.Product(PRODUCT, DEFAULT_PORT)), List.of("9.x"), SshCredential.FIELDS);

    public DnsConnectorFactory() {
        super(DESCRIPTOR, DnsCatalog.CATALOG, DnsSession::new);
    }
}
