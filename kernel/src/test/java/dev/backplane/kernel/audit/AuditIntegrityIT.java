package dev.backplane.kernel.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.audit.archive.ArchiveStore;
import dev.backplane.kernel.audit.archive.AuditArchives;
import dev.backplane.kernel.audit.integrity.AuditChain;
import dev.backplane.kernel.audit.integrity.AuditRecord;
import dev.backplane.kernel.audit.integrity.ChainStore;
import dev.backplane.kernel.audit.integrity.Chainer;
import dev.backplane.kernel.audit.integrity.SealKey;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 43: the audit log's hash chain finds every kind of tampering and names the row; retention drops a
 * partition only after its archive exists and verifies; archives verify offline and restore read-only.
 * Against the real kernel and its embedded PostgreSQL.
 */
class AuditIntegrityIT {

    private static final String SEAL_KEY = Base64.getEncoder().encodeToString(
            "a seal key of thirty-two bytes or more, for tests".getBytes(java.nio.charset.StandardCharsets.UTF_8));

    private static Map<String, String> settings(TestIssuer issuer, Path work, Map<String, String> more) throws Exception {
        Map<String, String> env = TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins")));
        env.put("SVC_AUDIT_SEAL_KEY", SEAL_KEY);
        env.put("SVC_AUDIT_CHAIN_INTERVAL_SECONDS", "1");
        env.put("SVC_AUDIT_SEAL_INTERVAL_SECONDS", "1");
        env.put("SVC_AUDIT_RETENTION_MIN_DAYS", "1");
        env.putAll(more);
        return env;
    }

    @Test
    void everyKindOfTamperingIsFoundAndNamed() throws Exception {
        Path work = TempDirs.create("svc-audit-tamper");
        try (TestIssuer issuer = new TestIssuer();
             TestKernel k = TestKernel.start(work.resolve("data"), settings(issuer, work, Map.of()))) {
            Map<String, UUID> tenants = new java.util.LinkedHashMap<>();
            for (String name : List.of("untouched", "altered", "deleted", "inserted", "swapped", "rewritten", "forged")) {
                UUID t = UUID.randomUUID();
                tenants.put(name, t);
                String admin = issuer.tenantAdmin(t);
                for (int i = 0; i < 8; i++) {
                    assertThat(k.get("/api/v1/audit/mine", admin).status()).isEqualTo(200);
                }
            }
            Jdbc jdbc = k.jdbc();
            for (UUID t : tenants.values()) {
                awaitChainedAndSealed(k, issuer.tenantAdmin(t), 8);
            }
            // untouched: ok over REST and the CLI (exit 0); an operator may not verify
            UUID untouched = tenants.get("untouched");
            JsonNode ok = k.get("/api/v1/audit/verify", issuer.tenantAdmin(untouched)).json();
            assertThat(ok.path("ok").asBoolean()).as(ok.toString()).isTrue();
            assertThat(ok.path("seals_signed").asBoolean()).isTrue();
            assertThat(ok.path("seals_checked").asLong()).isPositive();
            assertThat(k.get("/api/v1/audit/verify", issuer.operator(untouched)).status()).isEqualTo(403);
            CliRunner.Result cliOk = cli(k, work, issuer.tenantAdmin(untouched)).run("audit", "verify");
            assertThat(cliOk.exitCode()).as(cliOk.toString()).isZero();
            assertThat(cliOk.out()).startsWith("ok:");

            // altered: a row's params digest changed
            UUID altered = tenants.get("altered");
            UUID victim = rowAt(jdbc, altered, 4);
            jdbc.update("UPDATE audit_rows SET params_hash = 'forged' WHERE id = ?", victim);
            assertFirstProblem(k, work, issuer.tenantAdmin(altered), "altered", victim);

            // deleted: the row after the gap is named, with the gap
            UUID deleted = tenants.get("deleted");
            UUID gone = rowAt(jdbc, deleted, 4);
            UUID after = rowAt(jdbc, deleted, 5);
            jdbc.update("DELETE FROM audit_rows WHERE id = ?", gone);
            JsonNode missing = assertFirstProblem(k, work, issuer.tenantAdmin(deleted), "missing", after);
            assertThat(missing.path("detail").asText()).contains("rows 4..4");
            // a window after the gap verifies from the stored link before it (row 5's), and is ok
            JsonNode window = k.get("/api/v1/audit/verify?since=" + timeOf(jdbc, rowAt(jdbc, deleted, 6)),
                    issuer.tenantAdmin(deleted)).json();
            assertThat(window.path("ok").asBoolean()).as(window.toString()).isTrue();
            long fromSixth = jdbc.queryOne("SELECT count(*) FROM audit_links WHERE tenant_id = ? AND seq >= 6",
                    rs -> rs.getLong(1), deleted).orElseThrow();
            assertThat(window.path("rows_checked").asLong()).as(window.toString()).isBetween(3L, fromSixth);

            // inserted: a forged row between two chained ones
            UUID inserted = tenants.get("inserted");
            UUID forged = UUID.randomUUID();
            jdbc.update("""
                    INSERT INTO audit_rows (id, tenant_id, occurred_at, principal, principal_kind, op_class, op_id, result_status)
                    SELECT ?, tenant_id, occurred_at + interval '1 microsecond', 'someone-else', 'human', 'write',
                           'k8s.pod.delete', 'ok' FROM audit_rows WHERE id = ?""", forged, rowAt(jdbc, inserted, 3));
            assertFirstProblem(k, work, issuer.tenantAdmin(inserted), "inserted", forged);

            // swapped: two rows' times exchanged
            UUID swapped = tenants.get("swapped");
            UUID fourth = rowAt(jdbc, swapped, 4);
            UUID fifth = rowAt(jdbc, swapped, 5);
            jdbc.update("""
                    UPDATE audit_rows r SET occurred_at = o.occurred_at FROM audit_rows o
                     WHERE (r.id = ? AND o.id = ?) OR (r.id = ? AND o.id = ?)""", fourth, fifth, fifth, fourth);
            JsonNode reordered = assertFirstProblem(k, work, issuer.tenantAdmin(swapped), null, fourth);
            assertThat(reordered.path("kind").asText()).isIn("altered", "reordered");

            // rewritten: a row altered and every link after it recomputed, head included: only the seals show it
            UUID rewritten = tenants.get("rewritten");
            jdbc.update("UPDATE audit_rows SET principal = 'nobody' WHERE id = ?", rowAt(jdbc, rewritten, 2));
            recomputeChain(jdbc, rewritten);
            JsonNode report = k.get("/api/v1/audit/verify", issuer.tenantAdmin(rewritten)).json();
            assertThat(report.path("ok").asBoolean()).as(report.toString()).isFalse();
            assertThat(report.path("problems").findValuesAsText("kind")).contains("rewritten");

            // forged: a seal whose signature is not the seal key's
            UUID forgedSeal = tenants.get("forged");
            jdbc.update("UPDATE audit_seals SET mac = ? WHERE id = (SELECT min(id) FROM audit_seals WHERE tenant_id = ?)",
                    new byte[32], forgedSeal);
            JsonNode seal = k.get("/api/v1/audit/verify", issuer.tenantAdmin(forgedSeal)).json();
            assertThat(seal.path("ok").asBoolean()).as(seal.toString()).isFalse();
            assertThat(seal.path("problems").get(0).path("kind").asText()).isEqualTo("forged_seal");
        }
    }

    @Test
    void retentionDropsAPartitionOnlyAfterItsArchiveVerifies() throws Exception {
        Path work = TempDirs.create("svc-audit-retention");
        UUID tenant = UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer();
             TestKernel k = TestKernel.start(work.resolve("data"),
                     settings(issuer, work, Map.of("SVC_AUDIT_CHAIN_ENABLED", "false")))) {
            Jdbc jdbc = k.jdbc();
            String admin = issuer.tenantAdmin(tenant);
            String platform = issuer.platformAdminToken("auditor", tenant);
            // rows four and three months ago (to expire) and last month (to keep), then some of today
            Map<Integer, String> partitions = new java.util.TreeMap<>();
            for (int months : List.of(4, 3, 1)) {
                jdbc.queryOne("SELECT audit_ensure_partition(now() - make_interval(months => ?))", rs -> 1, months);
                partitions.put(months, jdbc.queryOne("SELECT 'audit_rows_' || to_char(now() - make_interval(months => ?), "
                        + "'\"y\"YYYY\"m\"MM')", rs -> rs.getString(1), months).orElseThrow());
                jdbc.update("""
                        INSERT INTO audit_rows (id, tenant_id, occurred_at, principal, principal_kind, op_class, op_id,
                               target, result_status, params_hash, extras)
                        SELECT gen_random_uuid(), ?, date_trunc('month', now() - make_interval(months => ?))
                               + interval '1 day' + g * interval '1 minute', 'seed-' || g, 'human',
                               CASE WHEN g % 4 = 0 THEN 'write' ELSE 'read' END, 'test.op', 'seeded', 'ok',
                               md5(g::text), jsonb_build_object('n', g, 'ratio', g / 3.0)
                          FROM generate_series(1, 20) g""", tenant, months);
            }
            for (int i = 0; i < 3; i++) {
                k.get("/api/v1/audit/mine", admin);
            }
            Chainer chainer = new Chainer(new ChainStore(jdbc), SealKey.of(SEAL_KEY), new SimpleMeterRegistry());
            Thread.sleep(1100); // past the chainer's settle time
            assertThat(chainer.chainOnce()).isGreaterThanOrEqualTo(63);
            chainer.seal();
            assertThat(k.get("/api/v1/audit/verify", admin).json().path("ok").asBoolean()).isTrue();
            // the rollups the chainer keeps: who touched the seeded target, principals by part of their name
            assertThat(touched(k, admin, "seed-7")).containsExactly(3L, 0L);
            assertThat(touched(k, admin, "seed-8")).containsExactly(3L, 3L);
            JsonNode bySeed1 = k.get("/api/v1/audit?principal=EED-1&limit=1000", admin).json().path("rows");
            assertThat(bySeed1.findValuesAsText("principal")).hasSize(33).allMatch(p -> p.startsWith("seed-1"));

            // retention: below the deploy's minimum and nonsense refused; 40 days accepted
            assertThat(k.put("/api/v1/audit/retention", admin, Map.of("days", 0)).json().path("error").asText())
                    .isEqualTo("invalid_retention");
            assertThat(k.put("/api/v1/audit/retention", admin, Map.of("days", "soon")).status()).isEqualTo(400);
            assertThat(k.put("/api/v1/audit/retention", issuer.operator(tenant), Map.of("days", 40)).status()).isEqualTo(403);
            assertThat(k.put("/api/v1/audit/retention", admin, Map.of("days", 40)).json().path("days").asInt()).isEqualTo(40);

            // a failing archive target blocks the drop, counts a failure and loses nothing
            Path notADirectory = Files.writeString(work.resolve("not-a-directory"), "x");
            SimpleMeterRegistry metrics = new SimpleMeterRegistry();
            long expiring = expiringRows(jdbc, tenant);
            assertThat(expiring).isEqualTo(40);
            AuditArchives blocked = new AuditArchives(new ArchiveStore(jdbc),
                    new AuditArchives.Policy(400, 1, 3, Optional.of(notADirectory.resolve("archive"))), metrics);
            assertThat(blocked.runOnce()).isZero();
            assertThat(metrics.counter("svc.audit.archive.failures").count()).isEqualTo(2);
            assertThat(metrics.get("svc.audit.retention.blocked").gauge().value()).isEqualTo(2);
            assertThat(expiringRows(jdbc, tenant)).as("nothing lost").isEqualTo(expiring);
            // no archive directory at all: nothing dropped either
            assertThat(new AuditArchives(new ArchiveStore(jdbc), new AuditArchives.Policy(400, 1, 3, Optional.empty()),
                    new SimpleMeterRegistry()).runOnce()).isZero();

            // with a working directory: both expired months archived, verified, dropped; last month kept
            Path dir = work.resolve("archive");
            AuditArchives archives = new AuditArchives(new ArchiveStore(jdbc),
                    new AuditArchives.Policy(400, 1, 3, Optional.of(dir)), new SimpleMeterRegistry());
            assertThat(archives.runOnce()).isEqualTo(2);
            List<String> left = new ArchiveStore(jdbc).partitions().stream().map(ArchiveStore.Partition::name).toList();
            assertThat(left).doesNotContain(partitions.get(4), partitions.get(3)).contains(partitions.get(1));
            for (int months : List.of(4, 3, 1)) {
                // a month's links (V059) go with its rows, and stay with the kept month
                String links = partitions.get(months).replace("audit_rows_", "audit_links_");
                assertThat(jdbc.queryOne("SELECT to_regclass(?) IS NOT NULL", rs -> rs.getBoolean(1), links))
                        .as(links).contains(months == 1);
            }
            assertThat(jdbc.queryOne("SELECT count(*) FROM audit_links l WHERE NOT EXISTS (SELECT 1 FROM audit_rows r "
                    + "WHERE r.id = l.audit_id)", rs -> rs.getLong(1))).as("no link without its row").contains(0L);
            assertThat(touched(k, admin, "seed-7")).as("the dropped months' calls leave who-touched").containsExactly(1L, 0L);
            JsonNode stats = k.get("/api/v1/audit/stats", platform).json();
            assertThat(java.time.Instant.parse(stats.path("tenant").path("oldest_kept_at").asText()))
                    .as("the oldest kept row is last month's").isAfter(java.time.Instant.now().minus(Duration.ofDays(63)));
            assertThat(stats.path("partitions").findValuesAsText("name")).contains(partitions.get(1));
            assertThat(stats.path("archives").size()).isEqualTo(2);
            JsonNode verified = k.get("/api/v1/audit/verify", admin).json();
            assertThat(verified.path("ok").asBoolean()).as("anchored by the archive: " + verified).isTrue();

            JsonNode list = k.get("/api/v1/audit/archives", platform).json().path("archives");
            assertThat(list.size()).isEqualTo(2);
            assertThat(list.findValuesAsText("dropped_at")).allMatch(v -> !v.isBlank());
            assertThat(k.get("/api/v1/audit/archives", admin).status()).isEqualTo(403);
            String oldest = list.get(0).path("name").asText();
            String newer = list.get(1).path("name").asText();
            assertThat(k.post("/api/v1/audit/archives/" + oldest + "/verify", platform, Map.of()).json().path("ok")
                    .asBoolean()).isTrue();
            Path manifest = dir.resolve("audit-" + oldest + ".manifest.json");
            CliRunner.Result offline = cli(k, work, admin).run("audit", "verify", "--archive", manifest.toString());
            assertThat(offline.exitCode()).as(offline.toString()).isZero();

            // restore into a read-only table
            JsonNode restored = k.post("/api/v1/audit/archives/" + oldest + "/restore", platform, Map.of()).json();
            assertThat(restored.path("rows").asLong()).isEqualTo(20);
            String table = restored.path("table").asText();
            assertThat(jdbc.queryOne("SELECT count(*) FROM " + table + " WHERE tenant_id = ?", rs -> rs.getLong(1), tenant))
                    .contains(20L);
            assertThat(jdbc.queryOne("SELECT count(DISTINCT chain_seq) FROM " + table + " WHERE chain_hash IS NOT NULL "
                    + "AND chain_pos IS NOT NULL", rs -> rs.getLong(1))).as("each row with its link").contains(20L);
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> jdbc.update("DELETE FROM " + table)))
                    .hasMessageContaining("read-only");
            assertThat(k.post("/api/v1/audit/archives/nope/verify", platform, Map.of()).status()).isEqualTo(404);

            // a corrupted archive file is found, on the server and offline
            Path file = dir.resolve("audit-" + newer + ".jsonl.gz");
            byte[] bytes = Files.readAllBytes(file);
            bytes[bytes.length / 2] ^= 0x40;
            Files.write(file, bytes);
            JsonNode corrupt = k.post("/api/v1/audit/archives/" + newer + "/verify", platform, Map.of()).json();
            assertThat(corrupt.path("ok").asBoolean()).isFalse();
            assertThat(corrupt.path("problems").get(0).path("kind").asText()).isEqualTo("corrupt_archive");
            CliRunner.Result broken = cli(k, work, admin).run("audit", "verify", "--archive",
                    dir.resolve("audit-" + newer + ".manifest.json").toString());
            assertThat(broken.exitCode()).isEqualTo(1);

            // a partition dropped without an archive: its rows are reported missing
            jdbc.update("ALTER TABLE audit_rows DETACH PARTITION " + partitions.get(1));
            jdbc.update("DROP TABLE " + partitions.get(1));
            JsonNode gap = k.get("/api/v1/audit/verify", admin).json();
            assertThat(gap.path("ok").asBoolean()).isFalse();
            assertThat(gap.path("problems").get(0).path("kind").asText()).isEqualTo("missing");
            assertThat(gap.path("problems").get(0).path("detail").asText()).contains("neither in the log nor in any archive");
            CliRunner.Result cliGap = cli(k, work, admin).run("audit", "verify");
            assertThat(cliGap.exitCode()).isEqualTo(1);
            assertThat(cliGap.out()).contains("missing");

            // a row whose month had no partition waits in the default one and moves when the month is created
            jdbc.update("INSERT INTO audit_rows (id, tenant_id, occurred_at, principal, principal_kind, op_class, op_id, "
                    + "result_status) VALUES (?, ?, now() + interval '10 months', 'p', 'human', 'read', 'x', 'ok')",
                    UUID.randomUUID(), tenant);
            assertThat(new ArchiveStore(jdbc).defaultPartitionRows()).isEqualTo(1);
            assertThat(jdbc.queryOne("SELECT audit_ensure_partition(now() + interval '10 months')", rs -> rs.getString(1)))
                    .isPresent();
            assertThat(new ArchiveStore(jdbc).defaultPartitionRows()).isZero();
            assertThat(jdbc.queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND occurred_at > now() "
                    + "+ interval '9 months'", rs -> rs.getLong(1), tenant)).contains(1L);
        }
    }

    /** who-touched seeded: the calls and writes of {@code principal}. */
    private static List<Long> touched(TestKernel k, String token, String principal) {
        for (JsonNode p : k.get("/api/v1/audit/who-touched/seeded", token).json()) {
            if (p.path("principal").asText().equals(principal)) {
                return List.of(p.path("calls").asLong(), p.path("writes").asLong());
            }
        }
        return List.of();
    }

    /** The tenant's rows of the two months that are past retention (seeded three and four months back). */
    private static long expiringRows(Jdbc jdbc, UUID tenant) {
        return jdbc.queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND occurred_at < date_trunc('month', "
                + "now() - interval '2 months')", rs -> rs.getLong(1), tenant).orElseThrow();
    }

    private static CliRunner cli(TestKernel k, Path work, String token) throws Exception {
        return k.cli(Files.createTempDirectory(work, "cli"), token);
    }

    private static UUID rowAt(Jdbc jdbc, UUID tenant, long seq) {
        return jdbc.queryOne("SELECT audit_id FROM audit_links WHERE tenant_id = ? AND seq = ?",
                rs -> rs.getObject(1, UUID.class), tenant, seq).orElseThrow();
    }

    private static String timeOf(Jdbc jdbc, UUID row) {
        return jdbc.queryOne("SELECT occurred_at FROM audit_rows WHERE id = ?", rs -> rs.getTimestamp(1).toInstant(), row)
                .orElseThrow().toString();
    }

    /** Verifies over REST and the CLI: not ok, the first problem of {@code kind} (any when null) names {@code row}. */
    private static JsonNode assertFirstProblem(TestKernel k, Path work, String token, String kind, UUID row) throws Exception {
        JsonNode report = k.get("/api/v1/audit/verify", token).json();
        assertThat(report.path("ok").asBoolean()).as(report.toString()).isFalse();
        JsonNode first = report.path("problems").get(0);
        if (kind != null) {
            assertThat(first.path("kind").asText()).as(report.toString()).isEqualTo(kind);
        }
        assertThat(first.path("audit_id").asText()).as(report.toString()).isEqualTo(row.toString());
        assertThat(first.path("occurred_at").asText()).isNotBlank();
        CliRunner.Result cli = cli(k, work, token).run("audit", "verify");
        assertThat(cli.exitCode()).as(cli.toString()).isEqualTo(1);
        assertThat(cli.out() + cli.err()).contains(row.toString());
        return first;
    }

    private static void awaitChainedAndSealed(TestKernel k, String token, int rows) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            JsonNode v = k.get("/api/v1/audit/verify", token).json();
            JsonNode stats = k.get("/api/v1/audit/stats", token).json().path("tenant");
            if (v.path("rows_checked").asLong() >= rows && stats.path("last_seal_seq").asLong() >= rows) {
                return;
            }
            assertThat(System.nanoTime()).as("chained and sealed: " + v + " " + stats).isLessThan(deadline);
            Thread.sleep(300);
        }
    }

    /** What someone with write access to the database would do: re-link the tenant's rows and move the head. */
    private static void recomputeChain(Jdbc jdbc, UUID tenant) {
        List<AuditRecord> rows = jdbc.query("SELECT " + AuditRecord.COLUMNS + " FROM " + AuditRecord.LINKED
                + " WHERE l.tenant_id = ? ORDER BY l.seq", AuditRecord::read, tenant);
        byte[] previous = AuditChain.GENESIS;
        for (AuditRecord r : rows) {
            byte[] link = AuditChain.link(previous, r.content());
            jdbc.update("UPDATE audit_links SET hash = ? WHERE audit_id = ?", link, r.id());
            previous = link;
        }
        jdbc.update("UPDATE audit_chain_heads SET hash = ? WHERE tenant_id = ?", previous, tenant);
    }
}
