package dev.backplane.kernel.sensors;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.Replicas;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two kernels on one database, as replicas: sensors created on either run on whichever replica claims
 * them, and each due time runs once — no due time has two results, due times are at least the interval
 * apart, and the target sees one call per evaluation (judged by due times and audit rows, never by how
 * far apart the runs happened to finish on a loaded machine).
 */
class SensorsScaleOutIT {

    @Test
    void eachDueSensorRunsOnceAcrossReplicas(@TempDir Path work) throws Exception {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("sx", "1.x").product("sx").ranges("*").operations(3)
                .httpProbe(true));
        AtomicInteger calls = new AtomicInteger();
        HttpServer target = LoopbackHttp.start(x -> {
            if (x.getRequestURI().getPath().startsWith("/items/")) {
                calls.incrementAndGet();
            }
            LoopbackHttp.answer(x, 200, "fine");
        });
        try (Replicas replicas = Replicas.start(work, Map.of())) {
            TestKernel a = replicas.a();
            TestKernel b = replicas.b();
            String admin = replicas.admin();
            UUID tenant = replicas.tenant();
            LoopbackTarget.on(target).register(a, admin, "web", "sx");
            a.enableConnector(admin, "sx-1.x");
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Map<String, Object> body = SensorsIT.sensorBody("s" + i, "item-" + i, 5);
                body.put("connector_id", "sx-1.x");
                body.put("op_id", "sx.item1.get");
                ids.add(SensorsIT.ok((i % 2 == 0 ? a : b).post("/api/v1/sensors", admin, body), 201).path("id").asText());
            }
            var jdbc = a.jdbc();
            SensorsIT.poll(() -> ids.stream().allMatch(id -> jdbc.queryOne("SELECT count(*) FROM sensor_results "
                    + "WHERE sensor_id = ?::uuid", rs -> rs.getLong(1), id).orElseThrow() >= 3), done -> done,
                    Duration.ofSeconds(120), "three runs of every sensor");
            for (String id : ids) {
                SensorsIT.ok(b.post("/api/v1/sensors/" + id + "/pause", admin, null), 200);
            }
            // a run claimed before its pause may still finish: settled is no run in flight (no sensor holding
            // its in-flight marker, no audit row still 'started') and the count unchanged for longer than a
            // claim looks ahead, with margin
            long[] last = {-1};
            Instant[] since = {Instant.now()};
            Duration quiet = SensorRuns.LOOKAHEAD.plusSeconds(3);
            SensorsIT.poll(() -> {
                long now = jdbc.queryOne("SELECT count(*) FROM sensor_results r JOIN sensors s ON s.id = r.sensor_id "
                        + "WHERE s.tenant_id = ?", rs -> rs.getLong(1), tenant).orElseThrow();
                long busy = jdbc.queryOne("SELECT (SELECT count(*) FROM audit_rows WHERE result_status = 'started' "
                        + "AND principal LIKE 'svc-sensor:%') + (SELECT count(*) FROM sensors WHERE tenant_id = ? "
                        + "AND running_until IS NOT NULL)", rs -> rs.getLong(1), tenant).orElseThrow();
                if (now != last[0] || busy > 0) {
                    last[0] = now;
                    since[0] = Instant.now();
                    return false;
                }
                return Duration.between(since[0], Instant.now()).compareTo(quiet) > 0;
            }, settled -> settled, Duration.ofSeconds(60), "the last runs to finish");
            for (String id : ids) {
                List<Instant> at = jdbc.query("SELECT due_at FROM sensor_results WHERE sensor_id = ?::uuid "
                        + "ORDER BY due_at", rs -> rs.getTimestamp(1).toInstant(), id);
                assertThat(at).as("sensor %s ran twice for one due time", id).doesNotHaveDuplicates();
                for (int i = 1; i < at.size(); i++) {
                    assertThat(Duration.between(at.get(i - 1), at.get(i))).as("sensor %s due times %s", id, at)
                            .isGreaterThanOrEqualTo(Duration.ofSeconds(5));
                }
                long audited = jdbc.queryOne("SELECT count(*) FROM audit_rows WHERE principal = ? AND op_id = ?",
                        rs -> rs.getLong(1), "svc-sensor:" + id, "sx.item1.get").orElseThrow();
                assertThat(audited).as("one audited dispatch per evaluation").isEqualTo(at.size());
            }
            assertThat(calls.get()).as("one target call per evaluation").isEqualTo((int) last[0]);
        } finally {
            target.stop(0);
        }
    }
}
