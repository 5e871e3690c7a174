package dev.backplane.kernel.audit.archive;

import dev.backplane.kernel.audit.integrity.AuditRecord;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/** The SQL of partitions, retention and archives: which partitions exist, exporting, dropping and restoring one. */
public final class ArchiveStore {

    /** The only partition names any statement here interpolates (monthly, legacy) or creates (restored). */
    private static final Pattern PARTITION = Pattern.compile("audit_rows_(y\\d{4}m\\d{2}|legacy)");

    /**
     * One partition of the log.
     *
     * @param from its lower bound (empty for the legacy partition, which has none)
     * @param estimatedRows PostgreSQL's estimate (exact after ANALYZE)
     * @param bytes on disk, with its indexes and its month's links (audit_links)
     */
    public record Partition(String name, Optional<Instant> from, Instant to, long estimatedRows, long bytes) {
    }

    /** An archive's row in {@code audit_archives}. */
    public record Archive(String name, String partition, Optional<Instant> from, Instant to, long rowCount, String sha256,
                          long bytes, Map<String, Object> manifest, Map<String, Object> locations, Instant createdAt,
                          Optional<Instant> verifiedAt, Optional<Instant> droppedAt) {
    }

    private final Jdbc jdbc;

    public ArchiveStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public Jdbc jdbc() {
        return jdbc;
    }

    static String checked(String partition) {
        if (!PARTITION.matcher(partition).matches()) {
            throw new IllegalArgumentException("not an audit partition: " + partition);
        }
        return partition;
    }

    /** Creates this month's partition and the next {@code ahead} months' where missing; returns those created. */
    public List<String> ensureAhead(int ahead) {
        return jdbc.query("SELECT p FROM generate_series(0, ?) AS m, "
                        + "LATERAL audit_ensure_partition(now() + make_interval(months => m)) AS p WHERE p IS NOT NULL",
                rs -> rs.getString(1), ahead);
    }

    /** Every partition but the default one, oldest first. */
    public List<Partition> partitions() {
        return jdbc.query("""
                SELECT c.relname,
                       (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz,
                       (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz,
                       greatest(c.reltuples, 0)::bigint, pg_total_relation_size(c.oid)
                       + coalesce(pg_total_relation_size(to_regclass(replace(c.relname, 'audit_rows_', 'audit_links_'))), 0)
                  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                 WHERE i.inhparent = 'audit_rows'::regclass AND c.relname <> 'audit_rows_default'
                 ORDER BY 3""", rs -> new Partition(rs.getString(1),
                        Optional.ofNullable(rs.getTimestamp(2)).map(Timestamp::toInstant), rs.getTimestamp(3).toInstant(),
                        rs.getLong(4), rs.getLong(5)));
    }

    /** The time of a tenant's oldest row still in the log. */
    public Optional<Instant> oldestRow(UUID tenant) {
        return jdbc.queryOne("SELECT min(occurred_at) FROM audit_rows WHERE tenant_id = ?",
                rs -> Optional.ofNullable(rs.getTimestamp(1)).map(Timestamp::toInstant), tenant).flatMap(o -> o);
    }

    /** Rows in the default partition (rows whose month had no partition when they were written). */
    public long defaultPartitionRows() {
        return jdbc.queryOne("SELECT count(*) FROM audit_rows_default", rs -> rs.getLong(1)).orElse(0L);
    }

    /** The tenants with rows in a partition (a skip scan of its tenant index: one probe per tenant). */
    public List<UUID> tenantsIn(String partition) {
        String p = checked(partition);
        return jdbc.query("WITH RECURSIVE t AS (SELECT (SELECT tenant_id FROM " + p + " ORDER BY tenant_id LIMIT 1) AS id "
                + "UNION ALL SELECT (SELECT tenant_id FROM " + p + " WHERE tenant_id > t.id ORDER BY tenant_id LIMIT 1) "
                + "FROM t WHERE t.id IS NOT NULL) SELECT id FROM t WHERE id IS NOT NULL", rs -> rs.getObject(1, UUID.class));
    }

    /** Each tenant's retention in days, for the tenants that set one. */
    public Map<UUID, Integer> retentions() {
        Map<UUID, Integer> out = new java.util.HashMap<>();
        jdbc.query("SELECT tenant_id, days FROM audit_retention", rs -> out.put(rs.getObject(1, UUID.class), rs.getInt(2)));
        return out;
    }

    public Optional<Integer> retention(UUID tenant) {
        return jdbc.queryOne("SELECT days FROM audit_retention WHERE tenant_id = ?", rs -> rs.getInt(1), tenant);
    }

    public void setRetention(UUID tenant, int days, String by) {
        jdbc.update("""
                INSERT INTO audit_retention (tenant_id, days, updated_by) VALUES (?, ?, ?)
                ON CONFLICT (tenant_id) DO UPDATE SET days = excluded.days, updated_by = excluded.updated_by, updated_at = now()""",
                tenant, days, by);
    }

    /** Streams a partition's rows to {@code sink}: each tenant's chain in order, then rows not in any chain. */
    public void export(String partition, RowSink sink) {
        String p = checked(partition);
        jdbc.inTransaction(c -> {
            // the month's own links partition, so the join reads one month of links, not every month's
            String links = linksOf(c, p).orElse("audit_links");
            stream(c, "SELECT " + AuditRecord.COLUMNS + " FROM " + AuditRecord.withLink(p, links) + " WHERE l.audit_id IS NOT NULL "
                    + "ORDER BY l.tenant_id, l.occurred_at, l.audit_id", sink);
            stream(c, "SELECT " + AuditRecord.COLUMNS + " FROM " + AuditRecord.withLink(p, links) + " WHERE l.audit_id IS NULL "
                    + "ORDER BY r.occurred_at, r.id", sink);
            return null;
        });
    }

    /** Receives exported rows one at a time. */
    public interface RowSink {
        void accept(AuditRecord row) throws java.io.IOException;
    }

    private static void stream(Connection c, String sql, RowSink sink) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setFetchSize(5000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sink.accept(AuditRecord.read(rs));
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Detaches and drops a partition if it still holds exactly {@code rows} rows (a row written to it since its
     * archive keeps it: the next run archives it again), in one transaction; returns whether it was dropped.
     */
    public boolean drop(String partition, long rows, String archive) {
        String p = checked(partition);
        return jdbc.inTransaction(c -> {
            dev.backplane.kernel.audit.integrity.ChainStore.lockChainer(c);
            Optional<String> links = linksOf(c, p);
            Jdbc.update(c, "LOCK TABLE " + p + " IN ACCESS EXCLUSIVE MODE");
            long now = Jdbc.query(c, "SELECT count(*) FROM " + p, rs -> rs.getLong(1)).getFirst();
            if (now != rows) {
                return false;
            }
            // the month's touches leave who-touched with it (its principals stay listed: a filter, not a count)
            Jdbc.update(c, "UPDATE audit_target_principals r SET calls = r.calls - d.calls, writes = r.writes - d.writes "
                    + "FROM (SELECT tenant_id, target, principal, principal_kind, count(*) AS calls, "
                    + "count(*) FILTER (WHERE op_class = 'write') AS writes FROM " + p + " x WHERE EXISTS (SELECT 1 FROM "
                    + links.orElse("audit_links") + " l WHERE l.tenant_id = x.tenant_id AND l.occurred_at = x.occurred_at "
                    + "AND l.audit_id = x.id) "
                    + "AND target IS NOT NULL GROUP BY 1, 2, 3, 4) d WHERE r.tenant_id = d.tenant_id AND r.target = d.target "
                    + "AND r.principal = d.principal AND r.principal_kind = d.principal_kind");
            Jdbc.update(c, "DELETE FROM audit_target_principals WHERE calls <= 0");
            Jdbc.update(c, "ALTER TABLE audit_rows DETACH PARTITION " + p);
            Jdbc.update(c, "DROP TABLE " + p);
            if (links.isPresent()) {
                Jdbc.update(c, "ALTER TABLE audit_links DETACH PARTITION " + links.get());
                Jdbc.update(c, "DROP TABLE " + links.get());
            }
            Jdbc.update(c, "UPDATE audit_archives SET dropped_at = now() WHERE name = ?", archive);
            return true;
        });
    }

    /** The partition of audit_links (V059) that holds the links of rows partition {@code p}, if there is one. */
    private static Optional<String> linksOf(Connection c, String p) throws SQLException {
        String links = p.replace("audit_rows_", "audit_links_");
        return Jdbc.query(c, "SELECT to_regclass(?) IS NOT NULL", rs -> rs.getBoolean(1), links).getFirst()
                ? Optional.of(links) : Optional.empty();
    }

    public void saveArchive(Archive a) {
        jdbc.update("""
                INSERT INTO audit_archives (name, partition, range_from, range_to, row_count, sha256, bytes, manifest,
                       locations, verified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET row_count = excluded.row_count, sha256 = excluded.sha256,
                       bytes = excluded.bytes, manifest = excluded.manifest, locations = excluded.locations,
                       verified_at = excluded.verified_at, created_at = now()""",
                a.name(), a.partition(), a.from().map(Timestamp::from).orElse(null), Timestamp.from(a.to()), a.rowCount(),
                a.sha256(), a.bytes(), Jdbc.jsonb(a.manifest()), Jdbc.jsonb(a.locations()),
                a.verifiedAt().map(Timestamp::from).orElse(null));
    }

    public void markVerified(String name) {
        jdbc.update("UPDATE audit_archives SET verified_at = now() WHERE name = ?", name);
    }

    public List<Archive> archives() {
        return jdbc.query("SELECT * FROM audit_archives ORDER BY range_to", ArchiveStore::archive);
    }

    public Optional<Archive> archive(String name) {
        return jdbc.queryOne("SELECT * FROM audit_archives WHERE name = ?", ArchiveStore::archive, name);
    }

    /** The link of a tenant's row {@code seq} as an archive's manifest recorded it (the last row of that tenant in it). */
    public Optional<byte[]> archivedLink(UUID tenant, long seq) {
        return jdbc.queryOne("SELECT manifest -> 'tenants' -> ? ->> 'last_hash' FROM audit_archives "
                        + "WHERE (manifest -> 'tenants' -> ? ->> 'last_seq')::bigint = ?",
                rs -> java.util.HexFormat.of().parseHex(rs.getString(1)), tenant.toString(), tenant.toString(), seq);
    }

    /**
     * Restores archived rows into a new read-only table {@code audit_restored_<archive>} (replaced if there), for
     * investigation with SQL; returns its name.
     */
    public String restore(String archiveName, RowSource rows) {
        String table = "audit_restored_" + archiveName.replaceAll("[^a-z0-9_]", "_");
        return jdbc.inTransaction(c -> {
            Jdbc.update(c, "DROP TABLE IF EXISTS " + table);
            Jdbc.update(c, "CREATE TABLE " + table + " (LIKE audit_rows INCLUDING DEFAULTS)");
            // the links as the archive carries them, beside the row (V059 keeps them in audit_links)
            Jdbc.update(c, "ALTER TABLE " + table + " ADD COLUMN chain_seq bigint, ADD COLUMN chain_hash bytea, "
                    + "ADD COLUMN chain_pos bigint");
            List<Map<String, Object>> batch = new java.util.ArrayList<>();
            try {
                rows.forEach(r -> {
                    Map<String, Object> line = new java.util.LinkedHashMap<>(r.content());
                    line.put("chain_seq", r.chainSeq() == 0 ? null : r.chainSeq());
                    line.put("chain_hash", r.chainHash().length == 0 ? null
                            : "\\x" + java.util.HexFormat.of().formatHex(r.chainHash()));
                    line.put("chain_pos", r.chainPos() == 0 ? null : r.chainPos());
                    batch.add(line);
                    if (batch.size() == 1000) {
                        insertRestored(c, table, batch);
                    }
                });
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            insertRestored(c, table, batch);
            Jdbc.update(c, "CREATE OR REPLACE FUNCTION " + table + "_read_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "RAISE EXCEPTION 'restored audit rows are read-only'; END $$");
            Jdbc.update(c, "CREATE TRIGGER read_only BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON " + table
                    + " FOR EACH STATEMENT EXECUTE FUNCTION " + table + "_read_only()");
            return table;
        });
    }

    /** Where restored rows come from (an archive file, read once). */
    public interface RowSource {
        void forEach(java.util.function.Consumer<AuditRecord> each) throws java.io.IOException;
    }

    private static void insertRestored(Connection c, String table, List<Map<String, Object>> batch) {
        if (!batch.isEmpty()) {
            try {
                Jdbc.update(c, "INSERT INTO " + table + " SELECT * FROM jsonb_populate_recordset(NULL::" + table + ", ?)",
                        Jdbc.jsonb(batch));
            } catch (SQLException e) {
                throw new Jdbc.DataAccessException(e);
            }
            batch.clear();
        }
    }

    private static Archive archive(ResultSet rs) throws SQLException {
        return new Archive(rs.getString("name"), rs.getString("partition"),
                Optional.ofNullable(rs.getTimestamp("range_from")).map(Timestamp::toInstant),
                rs.getTimestamp("range_to").toInstant(), rs.getLong("row_count"), rs.getString("sha256"), rs.getLong("bytes"),
                Jdbc.jsonObject(rs, "manifest"), Jdbc.jsonObject(rs, "locations"), rs.getTimestamp("created_at").toInstant(),
                Optional.ofNullable(rs.getTimestamp("verified_at")).map(Timestamp::toInstant),
                Optional.ofNullable(rs.getTimestamp("dropped_at")).map(Timestamp::toInstant));
    }
}
