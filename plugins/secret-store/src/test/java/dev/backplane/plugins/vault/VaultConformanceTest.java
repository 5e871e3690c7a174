package dev.backplane.plugins.vault;

import dev.backplane.kernel.testing.VaultDouble;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The connector conformance kit against the Vault double on loopback. */
class VaultConformanceTest extends ConnectorConformanceTest {

    private static VaultDouble vault;

    @BeforeAll
    static void start() throws IOException {
        vault = new VaultDouble("secret");
        vault.put("apps/web", Map.of("password", "conformance-" + VaultDouble.SECRET_ID));
    }

    @AfterAll
    static void stop() {
        vault.close();
    }

    @Override
    protected ConnectorFactory factory() {
        return new VaultConnectorFactory();
    }

    @Override
    protected TargetSpec reachableTarget() {
        return new TargetSpec("vault1", "vault", "127.0.0.1", vault.port(), Optional.empty(), true, Optional.empty(),
                Optional.empty(), Map.of("scheme", "http"));
    }

    @Override
    protected Credential goodCredential() {
        return new Credential(Map.of("token", VaultDouble.ROOT_TOKEN));
    }

    @Override
    protected Credential rejectedCredential() {
        return new Credential(Map.of("token", "s.not-a-token-" + VaultDouble.ROLE_ID));
    }

    /** The tokens, and the value stored in the KV secret the sample calls read. */
    @Override
    protected Set<String> secretValues() {
        return Set.of(VaultDouble.ROOT_TOKEN, "s.not-a-token-" + VaultDouble.ROLE_ID, "conformance-" + VaultDouble.SECRET_ID);
    }

    @Override
    protected List<OperationRequest> sampleCalls() {
        return List.of(sampleCall("vault.kv.list", Map.of("path", "apps")),
                sampleCall("vault.kv.read", Map.of("path", "apps/web")),
                sampleCall("vault.kv.metadata", Map.of("path", "apps/web")),
                sampleCall("vault.kv.versions", Map.of("path", "apps/web")),
                sampleCall("vault.sys.health", Map.of()), sampleCall("vault.sys.seal-status", Map.of()),
                sampleCall("vault.mount.list", Map.of()), sampleCall("vault.policy.list", Map.of()),
                sampleCall("vault.token.lookup-self", Map.of()), sampleCall("vault.pki.cert-list", Map.of()));
    }
}
