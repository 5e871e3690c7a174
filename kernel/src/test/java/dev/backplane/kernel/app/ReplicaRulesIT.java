package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No silent split state: with an external database the kernel refuses the file secret store unless the deploy
 * says it runs one replica, and says what to set; the embedded database is unchanged.
 */
class ReplicaRulesIT {

    @Test
    void anExternalDatabaseOnTheFileSecretStoreIsRefusedUnlessAllowedForOneReplica(@TempDir Path work) throws Exception {
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = ChildKernels.settings(pg, issuer, work, ChildKernels.freePort());
            env.remove("SVC_CREDENTIALS_FILE_SINGLE_REPLICA");

            // Main, as an operator runs it: "configuration error: ..." and exit code 2
            Path log = work.resolve("refused.log");
            Process main = ChildKernels.start(env, log);
            assertThat(main.waitFor(120, TimeUnit.SECONDS)).as("the kernel exits").isTrue();
            String out = Files.readString(log);
            assertThat(main.exitValue()).as(out).isEqualTo(2);
            assertThat(out).contains("svc kernel: configuration error: the database is external (SVC_DB_URL)")
                    .contains("SVC_VAULT_ADDR").contains("SVC_CREDENTIALS_BACKEND=cloudsm")
                    .contains("SVC_CREDENTIALS_FILE_SINGLE_REPLICA=true").doesNotContain(ExternalPostgres.PASSWORD);

            env.remove("SVC_SERVER_PORT");
            env.remove("SVC_DATA_DIR");
            assertThatThrownBy(() -> TestKernel.start(work.resolve("in-process"), env))
                    .isInstanceOf(KernelConfig.ConfigException.class).hasMessageContaining("SVC_VAULT_ADDR");

            env.put("SVC_CREDENTIALS_FILE_SINGLE_REPLICA", "true");
            try (TestKernel k = TestKernel.start(work.resolve("allowed"), env)) {
                assertThat(k.get("/health/ready", null).status()).isEqualTo(200);
            }
        }
    }

    @Test
    void theEmbeddedDatabaseStartsOnTheFileSecretStoreAsBefore(@TempDir Path work) throws Exception {
        try (TestIssuer issuer = new TestIssuer();
             TestKernel k = TestKernel.start(work, TestKernel.settings(issuer, Files.createDirectories(work.resolve("p"))))) {
            assertThat(k.get("/health/ready", null).status()).isEqualTo(200);
            assertThat(k.kernel().database().description()).startsWith("embedded postgresql");
        }
    }

    @Test
    void migrationsOffAtStartNeedAnExternalDatabase() {
        assertThatThrownBy(() -> KernelConfig.of(Map.of(Setting.DB_MIGRATE_ON_START, "false")).database())
                .isInstanceOf(KernelConfig.ConfigException.class)
                .hasMessageContaining("db.migrate-on-start is false but no external database is set (SVC_DB_URL)");
        assertThat(KernelConfig.of(Map.of(Setting.DB_MIGRATE_ON_START, "false", Setting.DB_URL,
                "jdbc:postgresql://127.0.0.1:1/x")).database().migrateOnStart()).isFalse();
        assertThat(KernelConfig.of(Map.of()).database().migrateOnStart()).isTrue();
    }
}
