package dev.backplane.kernel.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two kernels on one database, as replicas behind a load balancer: what one caches, a write on the
 * other invalidates (PostgreSQL LISTEN/NOTIFY), and the agent kill switch holds on every replica from
 * the very next call.
 */
class ScaleOutIT {

    @Test
    void writesOnOneReplicaAreSeenByTheOther(@TempDir Path work) throws Exception {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("so", "1.x").product("so").ranges("*").httpProbe(false));
        UUID tenant = UUID.randomUUID();
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = new HashMap<>(issuer.kernelSettings());
            env.put("SVC_DB_URL", pg.jdbcUrl());
            env.put("SVC_DB_USER", ExternalPostgres.USER);
            env.put("SVC_DB_PASSWORD", ExternalPostgres.PASSWORD);
            env.put("SVC_PLUGIN_DIR", plugins.toString());
            env.put("SVC_TARGET_SSRF_ALLOWLIST", "127.0.0.0/8");
            try (TestKernel a = TestKernel.start(work.resolve("a"), env);
                 TestKernel b = TestKernel.start(work.resolve("b"), env)) {
                String admin = issuer.token("admin", tenant, "tenant_admin");
                awaitTrue("both change feeds listen", () -> a.kernel().changeFeed().live() && b.kernel().changeFeed().live());

                // a lookup that misses is cached on b, then a creates the target
                assertThat(b.get("/api/v1/targets/edge-1", admin).status()).isEqualTo(404);
                assertThat(a.send("POST", "/api/v1/targets", admin, "{\"name\": \"edge-1\", \"product\": \"so\", "
                        + "\"host\": \"127.0.0.1\", \"port\": 9}", Map.of()).status()).isEqualTo(201);
                awaitTrue("b sees the new target", () -> b.get("/api/v1/targets/edge-1", admin).status() == 200);
                a.send("PATCH", "/api/v1/targets/edge-1", admin, "{\"notes\": \"moved\"}", Map.of());
                awaitTrue("b sees the patch", () -> b.get("/api/v1/targets/edge-1", admin).json().path("notes").asText()
                        .equals("moved"));

                // review state: cached on b, changed on a
                assertThat(b.get("/api/v1/connectors/so-1.x", admin).json().path("connector").path("status").asText()).isEqualTo("staged");
                assertThat(a.send("POST", "/api/v1/connectors/so-1.x/enable", admin, null, Map.of()).status())
                        .isEqualTo(200);
                awaitTrue("b sees the connector enabled", () -> b.get("/api/v1/connectors/so-1.x", admin).json()
                        .path("connector").path("status").asText().equals("enabled"));

                // the kill switch: pulled on a, effective on b at the next call, no waiting
                String name = "bot-" + tenant;
                assertThat(a.send("POST", "/api/v1/agent-principals", admin, "{\"name\": \"" + name + "\"}", Map.of())
                        .status()).isEqualTo(201);
                String agent = issuer.token(c -> c.subject("bot-sub").claim("azp", name)
                        .claim("tenant_id", tenant.toString()).claim("tenant_role", "operator"));
                awaitTrue("b knows the agent", () -> b.get("/api/v1/whoami", agent).json().path("principal_kind")
                        .asText().equals("agent"));
                assertThat(a.send("POST", "/api/v1/agent-principals/" + name + "/revoke", admin, null, Map.of())
                        .status()).isEqualTo(200);
                var killed = b.get("/api/v1/whoami", agent);
                assertThat(killed.status()).isEqualTo(403);
                assertThat(killed.json().path("error").asText()).isEqualTo("principal_revoked");
            }
        }
    }

    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }
}
