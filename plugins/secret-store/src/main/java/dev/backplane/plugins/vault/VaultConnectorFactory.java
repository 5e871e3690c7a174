package dev.backplane.plugins.vault;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import java.util.List;

/**
 * HashiCorp Vault as a governed target ({@code vault-1.x}): a curated, typed operation set over Vault's
 * HTTP API, sent with the JDK client the kernel lends (its TLS follows the target, its connections go
 * through the SSRF-checking egress proxy). OpenBao answers the same API, so it is the same family:
 * product {@code openbao}, versions 2.x. The credential is one field, {@code token}.
 */
public final class VaultConnectorFactory implements ConnectorFactory {

    static final String IMPL_ID = "vault";
    static final String VERSION = "1.x";
    static final String PRODUCT = "vault";
    static final String OPENBAO = "openbao";
    static final int DEFAULT_PORT = 8200;

    private static final ConnectorDescriptor DESCRIPTOR = new ConnectorDescriptor(IMPL_ID, VERSION,
            List.of(new ConnectorDescriptor.Product(PRODUCT, DEFAULT_PORT),
                    new ConnectorDescriptor.Product(OPENBAO, DEFAULT_PORT)),
            List.of("1.x", "2.x"), List.of(VaultClient.TOKEN_FIELD));

    @Override
    public ConnectorDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Catalog catalog() {
        return VaultCatalog.CATALOG;
    }

    @Override
    public Connector open(ConnectorContext context, TargetSpec target, Credential credential) {
        return new VaultSession(context, target, credential);
    }
}
