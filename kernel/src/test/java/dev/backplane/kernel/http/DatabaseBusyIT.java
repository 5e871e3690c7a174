package dev.backplane.kernel.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A request that cannot get a database connection within the pool's timeout answers 503 database_busy with
 * Retry-After, not 500 internal_error (the audit benchmark's partial-principal reads exhausted the pool and got 500s).
 */
class DatabaseBusyIT {

    @Test
    void anExhaustedPoolAnswers503WithRetryAfter() throws Exception {
        Path work = TempDirs.create("svc-db-busy");
        UUID tenant = UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins")));
            env.put("SVC_DB_POOL_SIZE", "2");
            try (TestKernel k = TestKernel.start(work.resolve("data"), env)) {
                String admin = issuer.tenantAdmin(tenant);
                assertThat(k.get("/api/v1/audit/mine", admin).status()).isEqualTo(200);
                DataSource pool = k.kernel().database().dataSource();
                List<Connection> held = new ArrayList<>();
                try {
                    for (int i = 0; i < 2; i++) {
                        held.add(pool.getConnection());
                    }
                    var busy = k.get("/api/v1/audit/mine", admin);
                    assertThat(busy.status()).as(busy.body()).isEqualTo(503);
                    assertThat(busy.json().path("error").asText()).isEqualTo("database_busy");
                    assertThat(busy.header("Retry-After")).contains("1");
                } finally {
                    for (Connection c : held) {
                        c.close();
                    }
                }
                assertThat(k.get("/api/v1/audit/mine", admin).status()).isEqualTo(200);
            }
        }
    }
}
