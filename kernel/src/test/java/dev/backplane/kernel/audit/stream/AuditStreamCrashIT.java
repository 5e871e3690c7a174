package dev.backplane.kernel.audit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The SIEM stream end to end: a kernel (child JVM, its own chainer and stream jobs) streams the audit rows that
 * two tenants' requests write to a real rsyslogd over TLS and to a loopback HTTP endpoint; mid-stream the kernel
 * is killed with SIGKILL and both receivers go down with it (rsyslogd killed, the HTTP endpoint stopped) while
 * requests go on; a second kernel starts on the same database and the receivers come back. In the end each
 * receiver has every row of both tenants at least once, the first copies in chain order per tenant, and every
 * further copy marked redelivered; the HTTP token appears in no kernel log.
 */
class AuditStreamCrashIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "crash-siem-token-" + UUID.randomUUID();

    @Test
    void everyRowReachesBothReceiversAtLeastOnceInOrderThroughAKernelKillAndReceiverOutages() throws Exception {
        Rsyslog.assumeInstalled();
        Path work = TempDirs.create("svc-audit-stream-crash");
        UUID tenantA = UUID.randomUUID();
        UUID tenantB = UUID.randomUUID();
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer();
             Rsyslog rsyslog = Rsyslog.start("dns:localhost"); HttpReceiver receiver = new HttpReceiver()) {
            int port = ChildKernels.freePort();
            Map<String, String> env = ChildKernels.settings(pg, issuer, work, port);
            env.put("SVC_AUDIT_CHAIN_INTERVAL_SECONDS", "1");
            env.put("SVC_AUDIT_STREAM_SYSLOG_ADDRESS", "localhost:" + rsyslog.port());
            env.put("SVC_AUDIT_STREAM_SYSLOG_CA_FILE", rsyslog.ca().ca().toString());
            env.put("SVC_AUDIT_STREAM_HTTP_URL", receiver.url());
            env.put("SVC_AUDIT_STREAM_HTTP_TOKEN", TOKEN);
            env.put("SVC_AUDIT_STREAM_BATCH", "20");
            String base = "http://127.0.0.1:" + port;
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            Map<UUID, String> tokens = Map.of(tenantA, issuer.token("reader-a", tenantA, "read_only"),
                    tenantB, issuer.token("reader-b", tenantB, "read_only"));

            Process first = ChildKernels.start(env, work.resolve("kernel-1.log"));
            Process second = null;
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger written = new AtomicInteger();
            List<Throwable> writerFailures = new CopyOnWriteArrayList<>();
            List<Thread> writers = new ArrayList<>();
            try {
                ChildKernels.awaitReady(http, base);
                for (UUID tenant : List.of(tenantA, tenantB)) {
                    writers.add(Thread.ofVirtual().start(() -> {
                        try {
                            while (writing.get()) {
                                try { // each read of the audit log writes an audit row of the reader's tenant
                                    var r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/audit/mine?limit=1"))
                                            .timeout(Duration.ofSeconds(5)).header("Authorization", "Bearer "
                                                    + tokens.get(tenant)).build(), HttpResponse.BodyHandlers.discarding());
                                    if (r.statusCode() == 200) {
                                        written.incrementAndGet();
                                    }
                                } catch (IOException down) {
                                    // the kernel is down: go on asking
                                }
                                Thread.sleep(15);
                            }
                        } catch (Throwable e) {
                            writerFailures.add(e);
                        }
                    }));
                }
                await(() -> receiver.acknowledged().size() >= 60 && rsyslog.messages().size() >= 60,
                        "both receivers get rows from the first kernel");
                var held = receiver.holdNext();
                await(() -> held.await(100, java.util.concurrent.TimeUnit.MILLISECONDS), "a batch in flight");
                int inFlight = receiver.rows().size() - receiver.acknowledged().size();
                first.destroyForcibly(); // SIGKILL, mid-stream: the HTTP receiver has a batch it has not answered
                first.waitFor();
                receiver.release();
                receiver.stop();
                rsyslog.kill();
                int atKill = written.get();
                second = ChildKernels.start(env, work.resolve("kernel-2.log"));
                ChildKernels.awaitReady(http, base, "second kernel ready (" + work.resolve("kernel-2.log") + ")");
                Thread.sleep(5000); // the receivers stay down a while, rows pile up
                receiver.start();
                rsyslog.start();
                await(() -> written.get() > atKill + 200, "rows written after the restart");
                writing.set(false);
                for (Thread w : writers) {
                    assertThat(w.join(Duration.ofSeconds(30))).isTrue();
                }
                assertThat(writerFailures).isEmpty();

                List<String[]> stored = new ArrayList<>(); // id, tenant, chain_pos of both tenants' rows
                await(() -> {
                    stored.clear();
                    stored.addAll(rows(pg, tenantA, tenantB));
                    boolean chained = stored.stream().allMatch(r -> r[2] != null);
                    Set<String> http1 = ids(receiver.rows());
                    Set<String> syslog = ids(syslogRows(rsyslog));
                    return chained && stored.stream().allMatch(r -> http1.contains(r[0]) && syslog.contains(r[0]));
                }, "every row of both tenants at both receivers (the killed kernel's jobs are taken over after ~40 s)");

                int httpCopies = check("http", receiver.rows(), stored);
                int syslogCopies = check("syslog", syslogRows(rsyslog), stored);
                System.out.printf("AuditStreamCrashIT: %d rows of 2 tenants, %d written before the kill; http received "
                        + "%d messages (%d duplicates, all marked), syslog %d (%d duplicates, all marked)%n", stored.size(),
                        atKill, receiver.rows().size(), httpCopies, syslogRows(rsyslog).size(), syslogCopies);
                assertThat(receiver.authorizations()).containsOnly("Bearer " + TOKEN);
                // svc audit stats shows each sink's position and lag (a platform admin sees the deploy-wide figures)
                var stats = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/audit/stats"))
                        .header("Authorization", "Bearer " + issuer.platformAdminToken("root", tenantA)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(stats.statusCode()).as(stats.body()).isEqualTo(200);
                JsonNode stream = JSON.readTree(stats.body()).path("stream");
                for (String sink : List.of("syslog", "http")) {
                    long max = Long.parseLong(stored.getLast()[2]);
                    assertThat(stream.path(sink).path("position").asLong()).as(stats.body()).isGreaterThanOrEqualTo(max);
                    assertThat(stream.path(sink).path("head_position").asLong()).isGreaterThanOrEqualTo(max);
                    assertThat(stream.path(sink).has("lag_rows") && stream.path(sink).has("lag_seconds")).isTrue();
                }
                assertThat(stats.body()).doesNotContain(TOKEN);
                assertThat(inFlight).as("the batch in flight at the kill").isPositive();
                assertThat(httpCopies).as("the batch in flight came again, marked").isGreaterThanOrEqualTo(inFlight);
            } finally {
                writing.set(false);
                first.destroyForcibly();
                if (second != null) {
                    second.destroy();
                    second.waitFor();
                }
            }
            for (String log : List.of("kernel-1.log", "kernel-2.log")) {
                String text = Files.readString(work.resolve(log));
                assertThat(text).as(log + " mentions the stream").contains("audit-stream");
                assertThat(text).as(log + " never shows the HTTP token").doesNotContain(TOKEN);
            }
        } finally {
            TempDirs.delete(work);
        }
    }

    /**
     * Every stored row arrived; per tenant, first copies come in chain order; a copy of a row seen before is marked
     * redelivered. Returns how many duplicates there were.
     */
    private static int check(String sink, List<JsonNode> received, List<String[]> stored) {
        Map<String, String[]> byId = new HashMap<>();
        stored.forEach(r -> byId.put(r[0], r));
        Set<String> seen = new HashSet<>();
        Map<String, Long> last = new LinkedHashMap<>();
        int duplicates = 0;
        for (JsonNode row : received) {
            String id = row.path("id").asText();
            String[] mine = byId.get(id);
            if (mine == null) {
                continue; // another tenant's row (the kernel's own work)
            }
            assertThat(row.path("chain_pos").asText()).as(sink + ": " + id + " carries its position").isEqualTo(mine[2]);
            if (!seen.add(id)) {
                duplicates++;
                assertThat(row.path("redelivered").asBoolean()).as(sink + ": a second copy of " + id + " is marked")
                        .isTrue();
                continue;
            }
            long pos = Long.parseLong(mine[2]);
            assertThat(pos).as(sink + ": tenant " + mine[1] + " in chain order").isGreaterThan(last.getOrDefault(mine[1], 0L));
            last.put(mine[1], pos);
        }
        assertThat(seen).as(sink + ": none lost").containsAll(byId.keySet());
        return duplicates;
    }

    private static List<String[]> rows(ExternalPostgres pg, UUID a, UUID b) {
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), ExternalPostgres.USER, ExternalPostgres.PASSWORD)) {
            ResultSet rs = c.createStatement().executeQuery("SELECT r.id::text, r.tenant_id::text, l.pos::text FROM "
                    + "audit_rows r LEFT JOIN audit_links l ON l.audit_id = r.id AND l.occurred_at = r.occurred_at "
                    + "WHERE r.tenant_id IN ('" + a + "', '" + b + "') ORDER BY l.pos");
            List<String[]> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
            }
            return out;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<JsonNode> syslogRows(Rsyslog rsyslog) {
        try {
            List<JsonNode> out = new ArrayList<>();
            for (String[] m : rsyslog.messages()) {
                out.add(JSON.readTree(m[3]));
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> ids(List<JsonNode> rows) {
        Set<String> out = new HashSet<>();
        rows.forEach(r -> out.add(r.path("id").asText()));
        return out;
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void await(Check condition, String what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (!condition.holds()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(250);
        }
    }
}
