package dev.backplane.kernel.audit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.testing.LogCapture;
import dev.backplane.kernel.testing.ScratchDatabase;
import dev.backplane.kernel.testing.TempDirs;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The SIEM stream against real receivers: Debian's rsyslogd over TLS with a CA made in the test, and a loopback
 * HTTP endpoint, on a real (embedded) PostgreSQL. Rows are written by {@link AuditLog} and given their chain
 * positions the way the chainer does (in commit order), so these tests need no kernel; {@code AuditStreamCrashIT}
 * runs the whole kernel with its own chainer.
 */
class AuditStreamIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "siem-token-" + UUID.randomUUID();
    @RegisterExtension
    static final ScratchDatabase.PerClass DB = ScratchDatabase.perClass("svc-audit-stream");
    private final UUID tenantA = UUID.randomUUID();
    private final UUID tenantB = UUID.randomUUID();

    @BeforeEach
    void everyTestStartsAtTheHead() {
        // each test streams its own rows: earlier tests' rows and links are gone
        DB.jdbc().update("DELETE FROM audit_links");
        DB.jdbc().update("DELETE FROM audit_rows");
        DB.jdbc().update("DELETE FROM audit_stream_cursors");
    }

    @Test
    void syslogOverTlsDeliversEveryRowInOrderThroughAReceiverCrash() throws Exception {
        try (Rsyslog rsyslog = Rsyslog.start("dns:localhost,ip:127.0.0.1")) {
            SimpleMeterRegistry metrics = new SimpleMeterRegistry();
            AuditStreamer streamer = streamer(syslog(rsyslog.port(), rsyslog.ca().ca(), "json", 40), metrics);
            AuditSink sink = streamer.sinks().getFirst();
            List<UUID> written = write(60);
            chain();
            assertThat(streamer.run(sink)).as("one run delivers up to its budget").isEqualTo(60);
            awaitMessages(rsyslog, 60);

            rsyslog.kill();
            written.addAll(write(100));
            chain();
            assertThat(streamer.run(sink)).as("nothing is delivered while the receiver is down").isZero();
            assertThat(metrics.counter("svc.audit.stream.failures", "sink", "syslog").count()).isEqualTo(1);
            assertThat(gauge(metrics, "svc.audit.stream.lag.rows")).isEqualTo(100);
            assertThat(streamer.lag()).extractingByKey("syslog").asString().contains("lag_rows=100");
            rsyslog.start();
            await(() -> streamer.run(sink) > 0, "the stream resumes after the receiver is back");
            await(() -> {
                streamer.run(sink);
                return gauge(metrics, "svc.audit.stream.lag.rows") == 0;
            }, "the stream catches up");
            List<JsonNode> received = awaitMessages(rsyslog, 160);
            assertThat(received.stream().map(m -> UUID.fromString(m.path("id").asText())).distinct().toList())
                    .as("every row, once or more, in chain order").containsExactlyElementsOf(written);
            assertInChainOrder(received);
        }
    }

    @Test
    void aRowThatMayHaveBeenSentBeforeGoesOutMarkedAsRedelivered() throws Exception {
        try (Rsyslog rsyslog = Rsyslog.start("dns:localhost")) {
            AuditStreamer streamer = streamer(syslog(rsyslog.port(), rsyslog.ca().ca(), "json", 500),
                    new SimpleMeterRegistry());
            List<UUID> written = write(10);
            chain();
            long fifth = position(written.get(4));
            // what a kernel killed after handing rows 1-5 to the socket, before the receiver confirmed, leaves behind
            new AuditStreamStore(DB.jdbc()).sending("syslog", fifth);
            streamer.run(streamer.sinks().getFirst());
            List<String[]> messages = awaitRaw(rsyslog, 10);
            for (int i = 0; i < 10; i++) {
                String[] m = messages.get(i);
                assertThat(m[0]).isEqualTo("svc-backplane");
                assertThat(m[1]).isEqualTo("audit");
                boolean again = i < 5;
                assertThat(m[2]).as("structured data").startsWith("[svc@32473 audit_id=\"" + written.get(i) + "\"")
                        .contains("chain_pos=\"" + position(written.get(i)) + "\"", "redelivered=\"" + again + "\"");
                assertThat(JSON.readTree(m[3]).path("redelivered").asBoolean()).isEqualTo(again);
            }
        }
    }

    /**
     * A flushed write proves nothing: a receiver that dies after reading part of a delivery must get all of it again.
     * The sink counts rows as delivered only once the receiver has read its close_notify, which it sends after the
     * last message, so the broken first connection is a failure and the next one carries every row, marked.
     */
    @Test
    void aSyslogReceiverThatDiesMidDeliveryGetsEveryRowAgainMarked() throws Exception {
        Path dir = TempDirs.create("svc-crashing-syslog");
        TestCa ca = TestCa.create(dir, "svc-test-ca", "dns:localhost");
        try (CrashingSyslogReceiver receiver = new CrashingSyslogReceiver(ca.serverContext())) {
            SimpleMeterRegistry metrics = new SimpleMeterRegistry();
            AuditStreamer streamer = streamer(syslog(receiver.port(), ca.ca(), "json", 500), metrics);
            List<UUID> written = write(20);
            chain();
            assertThat(streamer.run(streamer.sinks().getFirst())).as("the crashed delivery does not count").isZero();
            assertThat(metrics.counter("svc.audit.stream.failures", "sink", "syslog").count()).isEqualTo(1);
            await(() -> streamer.run(streamer.sinks().getFirst()) == 20, "delivered again");
            assertThat(receiver.messages()).hasSize(20);
            for (int i = 0; i < 20; i++) {
                assertThat(receiver.messages().get(i)).contains("audit_id=\"" + written.get(i) + "\"",
                        "redelivered=\"true\"");
            }
        } finally {
            TempDirs.delete(dir);
        }
    }

    @Test
    void cefPayloadCarriesTheRowAndItsChainPosition() throws Exception {
        try (Rsyslog rsyslog = Rsyslog.start("dns:localhost")) {
            AuditStreamer streamer = streamer(syslog(rsyslog.port(), rsyslog.ca().ca(), "cef", 500),
                    new SimpleMeterRegistry());
            List<UUID> written = write(2);
            chain();
            streamer.run(streamer.sinks().getFirst());
            List<String[]> messages = awaitRaw(rsyslog, 2);
            assertThat(messages.getFirst()[3]).startsWith("CEF:0|svc|backplane|1|k8s.scale|write k8s.scale ok|3|")
                    .contains("externalId=" + written.getFirst(), "suser=alice", "dhost=prod-cluster",
                            "cs3Label=tenant_id cs3=" + tenantA,
                            "cn1Label=chain_pos cn1=" + position(written.getFirst()),
                            "svcRedelivered=false", "msg={\"note\":\"a\\=b\"}");
        }
    }

    @Test
    void aReceiverWhoseCertificateTheCaDidNotSignOrThatNamesAnotherHostIsNeverSentAnything() throws Exception {
        Path otherCa = TempDirs.create("svc-other-ca");
        try (Rsyslog rsyslog = Rsyslog.start("dns:localhost");
             Rsyslog elsewhere = Rsyslog.start("dns:elsewhere.test")) {
            TestCa stranger = TestCa.create(otherCa, "someone-else", "dns:localhost");
            write(3);
            chain();
            SimpleMeterRegistry metrics = new SimpleMeterRegistry();
            AuditStreamer wrongCa = streamer(syslog(rsyslog.port(), stranger.ca(), "json", 500), metrics);
            assertThat(wrongCa.run(wrongCa.sinks().getFirst())).isZero();
            SimpleMeterRegistry metrics2 = new SimpleMeterRegistry();
            AuditStreamer wrongName = streamer(syslog(elsewhere.port(), elsewhere.ca().ca(), "json", 500), metrics2);
            assertThat(wrongName.run(wrongName.sinks().getFirst())).isZero();
            Thread.sleep(1500); // what rsyslogd received, it has written by now
            assertThat(rsyslog.messages()).as("nothing reached the receiver the CA did not sign").isEmpty();
            assertThat(elsewhere.messages()).as("nothing reached the receiver named otherwise").isEmpty();
            assertThat(metrics.counter("svc.audit.stream.failures", "sink", "syslog").count()).isEqualTo(1);
            assertThat(metrics2.counter("svc.audit.stream.failures", "sink", "syslog").count()).isEqualTo(1);
            assertThat(new AuditStreamStore(DB.jdbc()).cursor("syslog").acknowledged()).as("the cursor stays").isZero();
        } finally {
            TempDirs.delete(otherCa);
        }
    }

    @Test
    void httpDeliversEveryBatchThrough500sAndADownReceiverAndNeverShowsTheToken() throws Exception {
        LogCapture logs = LogCapture.onRootLogger();
        try (HttpReceiver receiver = new HttpReceiver()) {
            SimpleMeterRegistry metrics = new SimpleMeterRegistry();
            AuditStreamer streamer = streamer(http(receiver.url(), 25), metrics);
            AuditSink sink = streamer.sinks().getFirst();
            List<UUID> written = write(50);
            chain();
            assertThat(streamer.run(sink)).isEqualTo(50);

            receiver.failing(true); // it reads each batch, then answers 500: those rows come again, marked
            written.addAll(write(50));
            chain();
            assertThat(streamer.run(sink)).isZero();
            receiver.stop();
            Thread.sleep(1100); // past the first pause
            assertThat(streamer.run(sink)).isZero();
            double failures = metrics.counter("svc.audit.stream.failures", "sink", "http").count();
            assertThat(failures).isEqualTo(2);
            receiver.failing(false);
            receiver.start();
            await(() -> {
                streamer.run(sink);
                return receiver.acknowledged().size() >= 100;
            }, "the stream resumes and catches up");

            assertThat(receiver.acknowledged().stream().map(r -> UUID.fromString(r.path("id").asText())).toList())
                    .as("every row acknowledged exactly once, in chain order").containsExactlyElementsOf(written);
            List<JsonNode> all = receiver.rows();
            assertInChainOrder(all);
            assertThat(all.subList(0, 50)).allMatch(r -> !r.path("redelivered").asBoolean());
            assertThat(all.subList(50, 75)).as("the batch answered 500")
                    .allMatch(r -> !r.path("redelivered").asBoolean());
            assertThat(all).as("50 rows, 25 answered 500, 25 refused, then 50").hasSize(125);
            assertThat(all.subList(75, 100)).as("sent again: marked").allMatch(r -> r.path("redelivered").asBoolean());
            assertThat(all.subList(100, 125)).as("sent once").allMatch(r -> !r.path("redelivered").asBoolean());
            assertThat(all.getFirst().path("chain_hash").asText()).isNotEmpty();
            assertThat(receiver.authorizations()).containsOnly("Bearer " + TOKEN);
            assertThat(String.join("\n", logs.lines())).as("the failures are logged").contains("audit stream: delivery "
                    + "to HTTP receiver http://127.0.0.1:", "answered 500").doesNotContain(TOKEN);
            assertThat(all.toString()).doesNotContain(TOKEN);
            assertThat(streamer.lag().toString() + http(receiver.url(), 25)).doesNotContain(TOKEN);
        } finally {
            logs.detach();
        }
    }

    private static AuditStreamer streamer(AuditStreamer.Settings settings, MeterRegistry metrics) throws Exception {
        return new AuditStreamer(DB.jdbc(), settings, SSLContext.getDefault(), metrics);
    }

    /** A syslog sink on localhost's {@code port}, trusting {@code ca}. */
    private static AuditStreamer.Settings syslog(int port, Path ca, String format, int batch) {
        return new AuditStreamer.Settings(Optional.of("localhost:" + port), Optional.of(ca), format, Optional.empty(),
                Optional.empty(), batch, "kernel-1.test", Duration.ofSeconds(5));
    }

    private static AuditStreamer.Settings http(String url, int batch) {
        return new AuditStreamer.Settings(Optional.empty(), Optional.empty(), "json", Optional.of(URI.create(url)),
                Optional.of(TOKEN), batch, "kernel-1.test", Duration.ofSeconds(5));
    }

    /** Finished rows, alternating between the two tenants; their ids in the order written. */
    private List<UUID> write(int n) {
        AuditLog audit = new AuditLog(DB.jdbc());
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(audit.record(AuditLog.Entry.of(i % 2 == 0 ? tenantA : tenantB, "alice",
                    dev.backplane.kernel.identity.PrincipalKind.HUMAN, AuditClass.WRITE, "k8s.scale")
                    .target("prod-cluster"), "ok", Optional.empty(), Optional.empty(), Map.of("note", "a=b")));
        }
        return ids;
    }

    /** What the chainer does: unlinked rows get links with the next positions, in the order they were written. */
    private static void chain() {
        DB.jdbc().update("""
                WITH base AS (SELECT coalesce(max(pos), 0) AS b FROM audit_links),
                     o AS (SELECT id, occurred_at, tenant_id, row_number() OVER (ORDER BY occurred_at, id) AS n
                           FROM audit_rows r WHERE NOT EXISTS (SELECT 1 FROM audit_links l WHERE l.audit_id = r.id))
                INSERT INTO audit_links (audit_id, occurred_at, tenant_id, seq, hash, pos)
                SELECT id, occurred_at, tenant_id, base.b + o.n, decode('00', 'hex'), base.b + o.n FROM base, o""");
    }

    private static long position(UUID id) {
        return DB.jdbc().queryOne("SELECT pos FROM audit_links WHERE audit_id = ?", rs -> rs.getLong(1), id)
                .orElseThrow();
    }

    private static double gauge(SimpleMeterRegistry metrics, String name) {
        return metrics.get(name).tag("sink", "syslog").gauge().value();
    }

    /** Per tenant, the first copy of each row comes in chain order, and a copy comes again only marked. */
    private static void assertInChainOrder(List<JsonNode> received) {
        Map<String, Long> last = new LinkedHashMap<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (JsonNode row : received) {
            String id = row.path("id").asText();
            long pos = row.path("chain_pos").asLong();
            if (!seen.add(id)) {
                assertThat(row.path("redelivered").asBoolean()).as("a second copy of " + id + " is marked").isTrue();
                continue;
            }
            String tenant = row.path("tenant_id").asText();
            assertThat(pos).as("tenant " + tenant + " in chain order").isGreaterThan(last.getOrDefault(tenant, 0L));
            last.put(tenant, pos);
        }
    }

    private static List<JsonNode> awaitMessages(Rsyslog rsyslog, int atLeast) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String[] m : awaitRaw(rsyslog, atLeast)) {
            out.add(JSON.readTree(m[3]));
        }
        return out;
    }

    private static List<String[]> awaitRaw(Rsyslog rsyslog, int atLeast) throws Exception {
        await(() -> {
            try {
                return rsyslog.messages().size() >= atLeast;
            } catch (java.io.IOException e) {
                return false;
            }
        }, atLeast + " messages in rsyslogd's file (its log: " + rsyslog.log() + ")");
        return rsyslog.messages();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
