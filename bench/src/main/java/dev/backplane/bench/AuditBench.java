package dev.backplane.bench;

import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The audit log at production scale (issue 43): seeds 20 million chained rows over 12 months for 50 tenants (one
 * with half), then measures over HTTP the audit reads on the big tenant and a small one ({@link AuditReads}), the
 * dispatch path with chaining off and on ({@link AuditDispatch}), verify and archive export throughput, and disk
 * per million rows. {@code -Dsvc.bench.audit.rows=N} seeds fewer; {@code -Dsvc.bench.audit.data=DIR} keeps the
 * kernel's data directory and reuses a seed found there; {@code -Dsvc.bench.audit.index-after=true} loads
 * without the secondary indexes and builds them after.
 */
public final class AuditBench {

    /** What to measure after the seed (-Dsvc.bench.audit.phases=dispatch,reads,integrity: verify, stats, export). */
    private static final java.util.Set<String> PHASES = java.util.Set.of(
            System.getProperty("svc.bench.audit.phases", "dispatch,reads,integrity").split(","));

    private AuditBench() {
    }

    public static void main(String[] args) throws Exception {
        long rows = Long.getLong("svc.bench.audit.rows", 20_000_000L);
        String keep = System.getProperty("svc.bench.audit.data");
        Path data = keep != null ? Path.of(keep) : TempDirs.create("svc-audit-bench").resolve("data");
        Path plugins = Files.createDirectories(TempDirs.create("svc-audit-bench-plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("bench", "1.x").product("bench").ranges("*").httpProbe(false));
        System.out.printf("machine: %d cores (shared), JVM %s; data in %s%n", Runtime.getRuntime().availableProcessors(),
                Runtime.version(), data);
        try (TestIssuer issuer = new TestIssuer(); AuditDispatch dispatch = new AuditDispatch(issuer)) {
            Map<String, String> env = TestKernel.settings(issuer, plugins);
            env.put("SVC_DB_EMBEDDED_FSYNC", System.getProperty("svc.bench.fsync", "true"));
            System.out.println("embedded PostgreSQL fsync: " + env.get("SVC_DB_EMBEDDED_FSYNC"));
            Map<String, String> off = new java.util.HashMap<>(env);
            off.put("SVC_AUDIT_CHAIN_ENABLED", "false");
            Map<String, String> on = new java.util.HashMap<>(env);
            on.put("SVC_AUDIT_CHAIN_ENABLED", "true");
            Seeded seeded;
            try (TestKernel k = TestKernel.start(data, off)) {
                Jdbc jdbc = k.jdbc();
                System.out.println("PostgreSQL " + jdbc.queryOne("SHOW server_version", rs -> rs.getString(1)).orElse("?")
                        + ", shared_buffers " + jdbc.queryOne("SHOW shared_buffers", rs -> rs.getString(1)).orElse("?"));
                seeded = seed(k, rows);
                disk(jdbc, seeded.rows());
                dispatch.setUp(k);
            }
            // chaining off and on alternately, each on a fresh kernel over the same database: the machine's drift
            // (two cores shared with other work) falls on both modes alike
            int rounds = PHASES.contains("dispatch") ? Integer.getInteger("svc.bench.audit.dispatch-rounds", 3) : 0;
            for (int round = 1; round <= rounds; round++) {
                for (Map<String, String> mode : java.util.List.of(off, on)) {
                    try (TestKernel k = TestKernel.start(data, mode)) {
                        dispatch.run(k, (mode == on ? "chaining on" : "chaining off") + " (" + round + ")");
                    }
                }
            }
            Map<String, String> measure = new java.util.HashMap<>(on);
            measure.put("SVC_AUDIT_ARCHIVE_DIR", TempDirs.create("svc-audit-bench-archive").toString());
            try (TestKernel k = TestKernel.start(data, measure)) {
                if (rounds > 0) {
                    dispatch.summary();
                }
                AuditDispatch.explainFinish(k, AuditShape.ALL[0].id());
                if (PHASES.contains("reads")) {
                    AuditReads reads = new AuditReads(k, issuer, seeded);
                    reads.all(AuditShape.ALL[0], "big");
                    reads.all(AuditShape.ALL[AuditShape.SMALL], "small");
                }
                if (PHASES.contains("integrity")) {
                    AuditIntegrity integrity = new AuditIntegrity(k, issuer);
                    Instant month = seeded.to().minus(60, ChronoUnit.DAYS);
                    String lastMonth = "?since=" + month + "&until=" + month.plus(30, ChronoUnit.DAYS);
                    integrity.verify(AuditShape.ALL[AuditShape.SMALL], "small tenant, whole chain", "");
                    integrity.verify(AuditShape.ALL[0], "big tenant, 30 days", lastMonth);
                    integrity.verify(AuditShape.ALL[0], "big tenant, whole chain", "");
                    integrity.walk(AuditShape.ALL[AuditShape.SMALL], Long.MAX_VALUE, "small, whole chain");
                    integrity.walk(AuditShape.ALL[0], Long.getLong("svc.bench.audit.walk", 1_000_000L), "big");
                    integrity.stats(AuditShape.ALL[0]);
                    integrity.export(AuditShape.ALL[0]);
                }
                disk(k.jdbc(), seeded.rows());
            }
        }
    }

    /** The seed's rows, time range and rows per tenant. */
    record Seeded(long rows, Instant from, Instant to, long[] tenantRows) {
    }

    private static Seeded seed(TestKernel k, long rows) throws Exception {
        Jdbc jdbc = k.jdbc();
        jdbc.update("CREATE TABLE IF NOT EXISTS bench_audit_seed (rows bigint NOT NULL, seeded_from timestamptz NOT NULL, "
                + "seeded_to timestamptz NOT NULL, tenant_rows bigint[] NOT NULL)");
        var found = jdbc.queryOne("SELECT rows, seeded_from, seeded_to, tenant_rows FROM bench_audit_seed",
                rs -> new Seeded(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getTimestamp(3).toInstant(),
                        java.util.Arrays.stream((Long[]) rs.getArray(4).getArray()).mapToLong(Long::longValue).toArray()));
        if (found.isPresent()) {
            System.out.printf("reusing the seed in the data directory: %,d rows from %s to %s%n", found.get().rows(),
                    found.get().from(), found.get().to());
            return found.get();
        }
        boolean indexAfter = Boolean.getBoolean("svc.bench.audit.index-after");
        // the seed ends a minute ago: everything the kernel writes from now on lies after the chain watermark
        Instant end = Instant.now().minus(1, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MICROS);
        System.out.printf("seeding %,d rows over %d days for %d tenants (%s)%n", rows, AuditSeed.DAYS, AuditShape.TENANTS,
                indexAfter ? "secondary indexes dropped, built after the load" : "indexes in place, as the migration makes them");
        AuditLoad.Loaded l = AuditLoad.load(k.kernel().database().dataSource(), rows, end, indexAfter);
        System.out.printf("seeded %,d rows: COPY %.0f s (%,.0f rows/s), index builds %.0f s, VACUUM (ANALYZE) %.0f s; "
                        + "total %.0f s%n", l.rows(), l.copySeconds(), l.rows() / l.copySeconds(), l.indexSeconds(),
                l.vacuumSeconds(), l.copySeconds() + l.indexSeconds() + l.vacuumSeconds());
        System.out.printf("rows per tenant: big %,d, small (tenant %d) %,d%n", l.tenantRows()[0], AuditShape.SMALL,
                l.tenantRows()[AuditShape.SMALL]);
        jdbc.update("INSERT INTO bench_audit_seed VALUES (?, ?, ?, ?)", l.rows(), java.sql.Timestamp.from(l.from()),
                java.sql.Timestamp.from(l.to()), java.util.Arrays.stream(l.tenantRows()).boxed().toArray(Long[]::new));
        return new Seeded(l.rows(), l.from(), l.to(), l.tenantRows());
    }

    /** Disk of audit_rows and of its links (audit_links, V059) with all partitions and indexes, per million rows. */
    static void disk(Jdbc jdbc, long seededRows) {
        long count = jdbc.queryOne("SELECT sum(reltuples)::bigint FROM pg_class WHERE oid IN "
                + "(SELECT relid FROM pg_partition_tree('audit_rows') WHERE isleaf)", rs -> rs.getLong(1)).orElse(0L);
        long n = Math.max(1, Math.max(count, seededRows));
        for (String table : List.of("audit_rows", "audit_links")) {
            long[] sizes = jdbc.queryOne("SELECT sum(pg_total_relation_size(relid)), sum(pg_relation_size(relid)), "
                            + "sum(pg_indexes_size(relid)) FROM pg_partition_tree(?::regclass)",
                    rs -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)}, table).orElseThrow();
            System.out.printf("disk: %s and its partitions %,d MB for ~%,d rows: %.0f MB per million rows "
                            + "(table %.0f MB, indexes %.0f MB)%n", table, sizes[0] >> 20, n, sizes[0] / 1048576.0 / (n / 1e6),
                    sizes[1] / 1048576.0 / (n / 1e6), sizes[2] / 1048576.0 / (n / 1e6));
        }
    }

    static void expect(TestKernel.Response r, int... statuses) {
        for (int s : statuses) {
            if (r.status() == s) {
                return;
            }
        }
        throw new IllegalStateException("setup failed: " + r.status() + " " + r.body());
    }

    /** The tenant the dispatch runs call in: a new one each run (a reused data directory has the last run's). */
    private static final UUID DISPATCH_TENANT = UUID.randomUUID();

    static UUID dispatchTenant() {
        return DISPATCH_TENANT;
    }
}
