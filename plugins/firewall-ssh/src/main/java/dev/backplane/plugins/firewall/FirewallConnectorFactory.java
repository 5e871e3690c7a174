package dev.backplane.plugins.firewall;

import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.FixedConnectorFactory;
import dev.backplane.plugins.ssh.SshCredential;
import java.util.List;

/**
 * A firewall appliance running nftables, reached over SSH ({@code firewall-ssh-1.x}, product
 * {@code nftables}, port 22): the credential is an SSH login ({@link SshCredential}), the target pins
 * the server's host key (extras {@code ssh_host_key}).
 */
public final class FirewallConnectorFactory extends FixedConnectorFactory {

    static final String PRODUCT = "nftables";
    private static final ConnectorDescriptor DESCRIPTOR = new ConnectorDescriptor("firewall-ssh", "1.x",
            List.of(new ConnectorDescriptor.Product(PRODUCT, 22)), List.of("1.x"), SshCredential.FIELDS);

    public FirewallConnectorFactory() {
        super(DESCRIPTOR, FwCatalog.CATALOG, FirewallSession::new);
    }
}
