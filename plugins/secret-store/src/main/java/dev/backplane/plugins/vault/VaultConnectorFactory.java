package dev.backplane.plugins.vault;

import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.FixedConnectorFactory;
import java.util.List;

/**
 * HashiCorp Vault as a governed target ({@code vault-1.x}): a curated, typed operation set over Vault's
 * HTTP API, sent with the JDK client the kernel lends (its TLS follows the target, its connections go
 * through the SSRF-checking egress proxy). OpenBao answers the same API, so it is the same family:
 * product {@code openbao}, versions 2.x. The credential is one field, {@code token}.
 */
public final class VaultConnectorFactory extends FixedConnectorFactory {

    static final String IMPL_ID = "vault";
    static final String VERSION = "1.x";
    static final String PRODUCT = "vault";
    static final String OPENBAO = "openbao";
    static final int DEFAULT_PORT = 8200;

    private static final ConnectorDescriptor DESCRIPTOR = new ConnectorDescriptor(IMPL_ID, VERSION,
            List.of(new ConnectorDescriptor.Product(PRODUCT, DEFAULT_PORT),
                    new ConnectorDescriptor.Product(OPENBAO, DEFAULT_PORT)),
            List.of("1.x", "2.x"), List.of(VaultClient.TOKEN_FIELD));

    public VaultConnectorFactory() {
        super(DESCRIPTOR, VaultCatalog.CATALOG, VaultSession::new);
    }
}
