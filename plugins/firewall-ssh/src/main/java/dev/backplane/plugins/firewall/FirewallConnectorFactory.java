package dev.backplane.plugins.firewall;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugins.ssh.SshCredential;
import java.util.List;

/**
 * A firewall appliance running nftables, reached over SSH ({@code firewall-ssh-1.x}, product
 * {@code nftables}, port 22): the credential is an SSH login ({@link SshCredential}), the target pins
 * the server's host key (extras {@code ssh_host_key}).
 */
public final class FirewallConnectorFactory implements ConnectorFactory {

    static final String PRODUCT = "nftables";
    private static final ConnectorDescriptor DESCRIPTOR = new ConnectorDescriptor("firewall-ssh", "1.x",
            List.of(new ConnectorDescriptor.Product(PRODUCT, 22)), List.of("1.x"), SshCredential.FIELDS);

    @Override
    public ConnectorDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Catalog catalog() {
        return FwCatalog.CATALOG;
    }

    @Override
    public Connector open(ConnectorContext context, TargetSpec target, Credential credential) {
        return new FirewallSession(context, target, credential);
    }
}
