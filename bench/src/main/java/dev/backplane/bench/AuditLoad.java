package dev.backplane.bench;

import dev.backplane.kernel.audit.integrity.AuditChain;
import dev.backplane.kernel.audit.integrity.AuditRecord;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * Loads an {@link AuditSeed} into a kernel's database: the months' partitions first ({@code audit_ensure_partition}),
 * then one COPY (text) per day into {@code audit_rows} with the migration's indexes in place (or, with
 * {@code indexAfter}, dropped first and built again after), then the chain heads, the watermark and the chain_pos
 * sequence so the live chainer continues after the seed, then VACUUM (ANALYZE).
 */
final class AuditLoad {

    /** What a load took (seconds) and the rows per tenant. */
    record Loaded(long rows, Instant from, Instant to, long[] tenantRows, double copySeconds, double indexSeconds,
                  double vacuumSeconds) {
    }

    private AuditLoad() {
    }

    static Loaded load(DataSource ds, long total, Instant end, boolean indexAfter) throws Exception {
        long endMicros = end.getEpochSecond() * 1_000_000L + end.getNano() / 1000;
        AuditSeed seed = new AuditSeed(total, endMicros);
        Instant from = micros(seed.startMicros());
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                s.execute("SET synchronous_commit = off");
                for (OffsetDateTime m = from.atOffset(ZoneOffset.UTC).withDayOfMonth(1).truncatedTo(java.time.temporal.ChronoUnit.DAYS);
                     !m.isAfter(end.atOffset(ZoneOffset.UTC)); m = m.plusMonths(1)) {
                    try (var ps = c.prepareStatement("SELECT audit_ensure_partition(?)")) {
                        ps.setObject(1, m);
                        ps.execute();
                    }
                }
            }
            List<String> indexes = new ArrayList<>();
            if (indexAfter) {
                try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT indexname, indexdef FROM pg_indexes "
                        + "WHERE tablename = 'audit_rows' AND indexname <> 'audit_rows_pkey'")) {
                    while (rs.next()) {
                        // pg_indexes names a partitioned index ON ONLY the parent, which would build none of the partitions'
                        indexes.add(rs.getString(2).replace(" ON ONLY ", " ON "));
                        try (Statement d = c.createStatement()) {
                            d.execute("DROP INDEX " + rs.getString(1));
                        }
                    }
                }
            }
            BlockingQueue<AuditSeed.Day> days = new ArrayBlockingQueue<>(3);
            Thread producer = Thread.ofPlatform().name("audit-seed").start(() -> {
                try {
                    for (int d = 0; d < AuditSeed.DAYS; d++) {
                        days.put(seed.day(d));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            long t0 = System.nanoTime();
            long bytes = 0;
            for (int d = 0; d < AuditSeed.DAYS; d++) {
                AuditSeed.Day day = days.take();
                bytes += day.rows().length + day.links().length;
                CopyIn in = copy.copyIn("COPY audit_rows (" + AuditSeed.COLUMNS + ") FROM STDIN");
                in.writeToCopy(day.rows(), 0, day.rows().length);
                in.endCopy();
                CopyIn links = copy.copyIn("COPY audit_links (" + AuditSeed.LINK_COLUMNS + ") FROM STDIN");
                links.writeToCopy(day.links(), 0, day.links().length);
                links.endCopy();
                if ((d + 1) % 30 == 0 || d == AuditSeed.DAYS - 1) {
                    double s = (System.nanoTime() - t0) / 1e9;
                    System.out.printf("  seeded %d days, %,d rows, %.0f s, %,.0f rows/s, %,d MB of COPY text%n", d + 1,
                            seed.pos, s, seed.pos / s, bytes >> 20);
                }
            }
            producer.join();
            double copySeconds = (System.nanoTime() - t0) / 1e9;
            long t1 = System.nanoTime();
            try (Statement s = c.createStatement()) {
                s.execute("SET maintenance_work_mem = '256MB'");
                for (String index : indexes) {
                    long ti = System.nanoTime();
                    s.execute(index);
                    System.out.printf("  built %s in %.0f s%n", index.replaceAll(" USING.*", ""), (System.nanoTime() - ti) / 1e9);
                }
            }
            double indexSeconds = (System.nanoTime() - t1) / 1e9;
            heads(c, seed);
            rollups(c);
            long t2 = System.nanoTime();
            try (Statement s = c.createStatement()) {
                s.execute("VACUUM (ANALYZE) audit_rows, audit_links");
            }
            double vacuumSeconds = (System.nanoTime() - t2) / 1e9;
            long[] perTenant = Arrays.copyOf(seed.seq, seed.seq.length);
            return new Loaded(seed.pos, from, end, perTenant, copySeconds, indexSeconds, vacuumSeconds);
        }
    }

    /** Each tenant's chain head, the watermark at the newest row, and chain_pos continuing after the seed. */
    private static void heads(Connection c, AuditSeed seed) throws SQLException {
        try (var ps = c.prepareStatement("INSERT INTO audit_chain_heads (tenant_id, seq, hash, occurred_at, audit_id) "
                + "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, "
                + "occurred_at = excluded.occurred_at, audit_id = excluded.audit_id, updated_at = now()")) {
            for (int t = 0; t < AuditShape.TENANTS; t++) {
                if (seed.seq[t] == 0) {
                    continue;
                }
                ps.setObject(1, AuditShape.tenantId(t));
                ps.setLong(2, seed.seq[t]);
                ps.setBytes(3, seed.link[t]);
                ps.setObject(4, micros(seed.lastMicros[t]).atOffset(ZoneOffset.UTC));
                ps.setObject(5, seed.lastId[t]);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (var ps = c.prepareStatement("INSERT INTO audit_chain_watermark (occurred_at, audit_id) VALUES (?, ?) "
                + "ON CONFLICT (singleton) DO UPDATE SET occurred_at = excluded.occurred_at, audit_id = excluded.audit_id")) {
            ps.setObject(1, micros(seed.newestMicros).atOffset(ZoneOffset.UTC));
            ps.setObject(2, seed.newestId);
            ps.execute();
        }
        try (var ps = c.prepareStatement("SELECT setval('audit_chain_pos_seq', ?)")) {
            ps.setLong(1, seed.pos);
            ps.execute();
        }
    }

    /**
     * The rollups the chainer keeps as it links (V051: the principals of each tenant, and per target and principal
     * the calls, writes and last call), built for the seeded rows as the migration builds them for rows chained
     * before it.
     */
    private static void rollups(Connection c) throws SQLException {
        long t0 = System.nanoTime();
        try (Statement s = c.createStatement()) {
            s.execute("INSERT INTO audit_principals (tenant_id, principal, last_at) SELECT r.tenant_id, r.principal, "
                    + "max(r.occurred_at) FROM " + AuditRecord.LINKED + " GROUP BY 1, 2 ON CONFLICT DO NOTHING");
            s.execute("INSERT INTO audit_target_principals (tenant_id, target, principal, principal_kind, calls, writes, "
                    + "last_at) SELECT r.tenant_id, r.target, r.principal, r.principal_kind, count(*), count(*) FILTER "
                    + "(WHERE r.op_class = 'write'), max(r.occurred_at) FROM " + AuditRecord.LINKED
                    + " WHERE r.target IS NOT NULL GROUP BY 1, 2, 3, 4 ON CONFLICT DO NOTHING");
        }
        System.out.printf("  the principal and who-touched rollups of the seeded rows: %.0f s%n", (System.nanoTime() - t0) / 1e9);
    }

    static Instant micros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /**
     * Walks up to {@code limit} rows of a tenant's chain in seq order, as read back ({@link AuditRecord#read}),
     * recomputing each link (or, without {@code link}, only reading): the seed's own check, and an in-process floor for verify's throughput. Returns
     * {rows checked, nanoseconds, the seq of the first broken link or 0}.
     */
    static long[] walk(DataSource ds, UUID tenant, long limit, boolean link) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (var ps = c.prepareStatement("SELECT " + AuditRecord.COLUMNS + " FROM " + AuditRecord.LINKED
                    + " WHERE l.tenant_id = ? ORDER BY l.occurred_at, l.audit_id LIMIT ?")) {
                ps.setFetchSize(5000);
                ps.setObject(1, tenant);
                ps.setLong(2, limit);
                long t0 = System.nanoTime();
                long n = 0;
                long broken = 0;
                byte[] previous = AuditChain.GENESIS;
                try (var rs = ps.executeQuery()) {
                    while (rs.next()) {
                        AuditRecord r = AuditRecord.read(rs);
                        n++;
                        if (!link) {
                            continue;
                        }
                        byte[] expect = AuditChain.link(previous, r.content());
                        if (broken == 0 && (r.chainSeq() != n || !Arrays.equals(expect, r.chainHash()))) {
                            broken = r.chainSeq();
                        }
                        previous = r.chainHash();
                    }
                }
                c.commit();
                return new long[] {n, System.nanoTime() - t0, broken};
            }
        }
    }
}
