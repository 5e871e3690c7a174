package dev.backplane.plugins.vault;

import dev.backplane.kernel.testing.VaultDouble;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ClassFixture;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The connector conformance kit against the Vault double on loopback. */
class VaultConformanceTest extends ConnectorConformanceTest {

    private static final String STORED = "conformance-" + VaultDouble.SECRET_ID;
    private static final String NOT_A_TOKEN = "s.not-a-token-" + VaultDouble.ROLE_ID;

    @RegisterExtension
    static final ClassFixture<VaultDouble> VAULT = ClassFixture.of(() -> {
        VaultDouble vault = new VaultDouble("secret");
        vault.put("apps/web", Map.of("password", STORED));
        return vault;
    });

    /** The secret values are the tokens, and the value stored in the KV secret the sample calls read. */
    @Override
    protected Subject subject() {
        return new Subject(new VaultConnectorFactory(),
                new TargetSpec("vault1", "vault", "127.0.0.1", VAULT.get().port(), Optional.empty(), true,
                        Optional.empty(), Optional.empty(), Map.of("scheme", "http")),
                new Credential(Map.of("token", VaultDouble.ROOT_TOKEN)),
                new Credential(Map.of("token", NOT_A_TOKEN)),
                List.of(sampleCall("vault.kv.list", Map.of("path", "apps")),
                        sampleCall("vault.kv.read", Map.of("path", "apps/web")),
                        sampleCall("vault.kv.metadata", Map.of("path", "apps/web")),
                        sampleCall("vault.kv.versions", Map.of("path", "apps/web")),
                        sampleCall("vault.sys.health", Map.of()), sampleCall("vault.sys.seal-status", Map.of()),
                        sampleCall("vault.mount.list", Map.of()), sampleCall("vault.policy.list", Map.of()),
                        sampleCall("vault.token.lookup-self", Map.of()), sampleCall("vault.pki.cert-list", Map.of())))
                .withSecretValues(Set.of(VaultDouble.ROOT_TOKEN, NOT_A_TOKEN, STORED));
    }
}
