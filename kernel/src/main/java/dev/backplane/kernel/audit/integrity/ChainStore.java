package dev.backplane.kernel.audit.integrity;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The chain's SQL: the rows to link, the heads, the watermark and the seals. */
public final class ChainStore {

    /** The advisory lock a chainer holds for its transaction: two chainers never link at once. */
    private static final long CHAINER_LOCK = 0x5356_4341_4348_4e01L;

    /** A tenant's chain head: its last linked row. */
    public record Head(UUID tenantId, long seq, byte[] hash, Instant occurredAt, UUID auditId) {
    }

    /** How far the chainer has got over all tenants, in (occurred_at, id) order. */
    public record Watermark(Instant occurredAt, UUID auditId) {
    }

    /** A sealed chain head. */
    public record Seal(UUID tenantId, long seq, byte[] hash, Instant sealedAt, Optional<String> keyId, Optional<byte[]> mac) {
    }

    private final Jdbc jdbc;

    public ChainStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public Jdbc jdbc() {
        return jdbc;
    }

    /** Runs {@code body} in one transaction holding the chainer's lock. */
    <T> T inChainerTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(c -> {
            lockChainer(c);
            return body.run(c);
        });
    }

    /** Takes the chainer's lock for {@code c}'s transaction (the chainer, and a drop that subtracts from its rollups). */
    public static void lockChainer(Connection c) throws SQLException {
        Jdbc.query(c, "SELECT pg_advisory_xact_lock(?)", rs -> 1, CHAINER_LOCK);
    }

    /**
     * Adds a batch of linked rows to the rollups (V051): the principals each tenant's log names, and per target and
     * principal the calls, writes and last call.
     */
    static void rollUp(Connection c, List<AuditRecord> rows) throws SQLException {
        Map<List<Object>, Instant> principals = new java.util.LinkedHashMap<>();
        Map<List<Object>, long[]> touches = new java.util.LinkedHashMap<>();
        Map<List<Object>, Instant> lastTouch = new java.util.HashMap<>();
        for (AuditRecord r : rows) {
            Map<String, Object> m = r.content();
            Instant at = r.occurredAt();
            UUID tenant = r.tenantId();
            principals.merge(List.of(tenant, m.get("principal")), at, ChainStore::later);
            if (m.get("target") != null) {
                List<Object> key = List.of(tenant, m.get("target"), m.get("principal"), m.get("principal_kind"));
                long[] n = touches.computeIfAbsent(key, k -> new long[2]);
                n[0]++;
                n[1] += "write".equals(m.get("op_class")) ? 1 : 0;
                lastTouch.merge(key, at, ChainStore::later);
            }
        }
        Jdbc.update(c, """
                INSERT INTO audit_principals (tenant_id, principal, last_at)
                SELECT t, p, l::timestamptz FROM unnest(?::uuid[], ?::text[], ?::text[]) AS v(t, p, l)
                ON CONFLICT (tenant_id, principal) DO UPDATE SET last_at = greatest(audit_principals.last_at, excluded.last_at)""",
                c.createArrayOf("uuid", principals.keySet().stream().map(k -> k.get(0)).toArray()),
                c.createArrayOf("text", principals.keySet().stream().map(k -> k.get(1)).toArray()),
                c.createArrayOf("text", principals.values().stream().map(Instant::toString).toArray()));
        if (touches.isEmpty()) {
            return;
        }
        Jdbc.update(c, """
                INSERT INTO audit_target_principals (tenant_id, target, principal, principal_kind, calls, writes, last_at)
                SELECT t, tg, p, k, n, w, l::timestamptz
                  FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::text[]) AS v(t, tg, p, k, n, w, l)
                ON CONFLICT (tenant_id, target, principal, principal_kind) DO UPDATE SET
                       calls = audit_target_principals.calls + excluded.calls,
                       writes = audit_target_principals.writes + excluded.writes,
                       last_at = greatest(audit_target_principals.last_at, excluded.last_at)""",
                c.createArrayOf("uuid", touches.keySet().stream().map(k -> k.get(0)).toArray()),
                c.createArrayOf("text", touches.keySet().stream().map(k -> k.get(1)).toArray()),
                c.createArrayOf("text", touches.keySet().stream().map(k -> k.get(2)).toArray()),
                c.createArrayOf("text", touches.keySet().stream().map(k -> k.get(3)).toArray()),
                c.createArrayOf("bigint", touches.values().stream().map(n -> n[0]).toArray()),
                c.createArrayOf("bigint", touches.values().stream().map(n -> n[1]).toArray()),
                c.createArrayOf("text", touches.keySet().stream().map(k -> lastTouch.get(k).toString()).toArray()));
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /** Receives a tenant's chained rows in chain order. */
    public interface RowVisitor {
        void visit(AuditRecord row) throws SQLException;
    }

    /**
     * Streams a tenant's chained rows with times in {@code [since, until)} in chain order, which is (occurred_at, id)
     * order. Two range scans are merged here, the tenant's links (their key) and the tenant's rows
     * (audit_rows_tenant_time, backwards), each read once in order: PostgreSQL's own plans for the join were a nested
     * loop over every row of a small tenant, or a scan of all tenants' rows for a big one. A link whose row is not at
     * the link's time is followed to the row by its id alone (its time was edited: verify reports it), or skipped (the
     * row is gone: verify reports the gap). Rows without a link are passed over (verify counts them apart).
     */
    public void walk(UUID tenant, Optional<Instant> since, Optional<Instant> until, RowVisitor visitor) {
        jdbc.inTransaction(c -> {
            String window = (since.isPresent() ? " AND occurred_at >= ?" : "") + (until.isPresent() ? " AND occurred_at < ?" : "");
            try (java.sql.PreparedStatement links = c.prepareStatement("SELECT audit_id, occurred_at, seq, hash, pos "
                    + "FROM audit_links WHERE tenant_id = ?" + window + " ORDER BY tenant_id, occurred_at, audit_id");
                 java.sql.PreparedStatement rows = c.prepareStatement("SELECT " + AuditRecord.UNLINKED_COLUMNS
                         + " FROM audit_rows r WHERE tenant_id = ?" + window + " ORDER BY tenant_id, occurred_at, id")) {
                for (java.sql.PreparedStatement ps : List.of(links, rows)) {
                    ps.setFetchSize(5000);
                    int i = 1;
                    ps.setObject(i++, tenant);
                    if (since.isPresent()) {
                        ps.setTimestamp(i++, Timestamp.from(since.get()));
                    }
                    if (until.isPresent()) {
                        ps.setTimestamp(i, Timestamp.from(until.get()));
                    }
                }
                try (java.sql.ResultSet l = links.executeQuery(); java.sql.ResultSet r = rows.executeQuery()) {
                    boolean more = r.next();
                    while (l.next()) {
                        UUID id = l.getObject(1, UUID.class);
                        Instant at = l.getTimestamp(2).toInstant();
                        int order = 1;
                        while (more && (order = compare(r.getTimestamp("occurred_at").toInstant(), r.getObject("id", UUID.class),
                                at, id)) < 0) {
                            more = r.next(); // a row without a link here
                        }
                        List<AuditRecord> found;
                        if (more && order == 0) {
                            found = List.of(AuditRecord.read(r));
                            more = r.next();
                        } else {
                            found = Jdbc.query(c, "SELECT " + AuditRecord.UNLINKED_COLUMNS + " FROM audit_rows r WHERE r.id = ?",
                                    AuditRecord::read, id);
                        }
                        for (AuditRecord row : found) {
                            visitor.visit(row.chained(l.getLong(3), l.getBytes(4), l.getLong(5)));
                        }
                    }
                }
            }
            return null;
        });
    }

    /** (occurred_at, id) order as PostgreSQL sorts it: by time, then a uuid's 16 bytes unsigned. */
    static int compare(Instant atA, UUID idA, Instant atB, UUID idB) {
        int byTime = atA.compareTo(atB);
        if (byTime != 0) {
            return byTime;
        }
        int high = Long.compareUnsigned(idA.getMostSignificantBits(), idB.getMostSignificantBits());
        return high != 0 ? high : Long.compareUnsigned(idA.getLeastSignificantBits(), idB.getLeastSignificantBits());
    }

    /**
     * The link stored with the tenant's row before {@code row} (in chain order) if that row is in the log and is
     * the chain's row {@code row.chainSeq() - 1}.
     */
    public Optional<byte[]> linkBefore(UUID tenant, AuditRecord row) {
        return jdbc.queryOne("""
                SELECT l.hash FROM (SELECT * FROM audit_links WHERE tenant_id = ? AND (occurred_at, audit_id) < (?, ?)
                                     ORDER BY occurred_at DESC, audit_id DESC LIMIT 1) l
                 WHERE l.seq = ? AND EXISTS (SELECT 1 FROM audit_rows r WHERE r.id = l.audit_id)""",
                rs -> rs.getBytes(1), tenant, Timestamp.from(row.occurredAt()), row.id(), row.chainSeq() - 1);
    }

    /** A row that is not in the chain: its id and time. */
    public record Unchained(UUID auditId, Instant occurredAt) {
    }

    /**
     * How many of a tenant's rows with times in {@code [since, until)} the watermark has passed: as many as the chain
     * has there, unless rows were inserted afterwards (an index-only count; {@link #unchainedBelow} names them).
     */
    public long passed(UUID tenant, Watermark w, Instant since, Instant until) {
        return jdbc.queryOne("""
                SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND (occurred_at, id) <= (?, ?)
                   AND occurred_at >= ? AND occurred_at < ?""", rs -> rs.getLong(1),
                tenant, Timestamp.from(w.occurredAt()), w.auditId(), Timestamp.from(since), Timestamp.from(until)).orElse(0L);
    }

    /**
     * A tenant's rows not in the chain although the watermark has passed them (inserted afterwards), oldest first.
     * It probes each row's link, so verify calls it only when {@link #passed} counts more rows than the chain.
     */
    public List<Unchained> unchainedBelow(UUID tenant, Watermark w, Instant since, Instant until, int limit) {
        return jdbc.query("""
                SELECT r.id, r.occurred_at FROM audit_rows r WHERE r.tenant_id = ?
                   AND (r.occurred_at, r.id) <= (?, ?) AND r.occurred_at >= ? AND r.occurred_at < ?
                   AND NOT EXISTS (SELECT 1 FROM audit_links l WHERE l.tenant_id = r.tenant_id
                                      AND l.occurred_at = r.occurred_at AND l.audit_id = r.id)
                 ORDER BY r.occurred_at, r.id LIMIT ?""", rs -> new Unchained(rs.getObject(1, UUID.class),
                        rs.getTimestamp(2).toInstant()),
                tenant, Timestamp.from(w.occurredAt()), w.auditId(), Timestamp.from(since), Timestamp.from(until), limit);
    }

    /** How many of a tenant's rows wait to be chained (newer than the watermark). */
    public long pending(UUID tenant, Optional<Watermark> mark) {
        return jdbc.queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ?"
                        + (mark.isPresent() ? " AND (occurred_at, id) > (?, ?)" : ""), rs -> rs.getLong(1),
                mark.map(w -> new Object[] {tenant, Timestamp.from(w.occurredAt()), w.auditId()}).orElse(new Object[] {tenant}))
                .orElse(0L);
    }

    /**
     * The time below which every row that will ever commit normally has committed: a little before now, before
     * the start of any transaction still open (its rows carry its start time), and before the oldest row still
     * {@code started} (its outcome is not written yet).
     */
    static Instant bound(Connection c, long settleMillis) throws SQLException {
        return Jdbc.query(c, """
                SELECT least(now() - make_interval(secs => ?),
                             (SELECT min(xact_start) FROM pg_stat_activity
                               WHERE datname = current_database() AND pid <> pg_backend_pid()
                                 AND backend_type = 'client backend' AND state <> 'idle'),
                             (SELECT min(occurred_at) FROM audit_rows WHERE result_status = 'started'))""",
                rs -> rs.getTimestamp(1).toInstant(), settleMillis / 1000.0).getFirst();
    }

    /** The chain's watermark, read on {@code c} (in its snapshot): every row after it is unlinked. */
    public static Optional<Watermark> watermark(Connection c) throws SQLException {
        return Jdbc.query(c, "SELECT occurred_at, audit_id FROM audit_chain_watermark",
                rs -> new Watermark(rs.getTimestamp(1).toInstant(), rs.getObject(2, UUID.class))).stream().findFirst();
    }

    /**
     * Rows not chained yet: after the watermark and below {@code bound}, in (occurred_at, id) order
     * (audit_rows_time). The watermark moves in the transaction that links, so every row after it is unlinked.
     */
    static List<AuditRecord> unchained(Connection c, Optional<Watermark> after, Instant bound, int limit)
            throws SQLException {
        String sql = "SELECT " + AuditRecord.UNLINKED_COLUMNS + " FROM audit_rows r WHERE r.occurred_at < ?"
                + (after.isPresent() ? " AND (r.occurred_at, r.id) > (?, ?)" : "") + " ORDER BY r.occurred_at, r.id LIMIT ?";
        Object[] params = after.map(w -> new Object[] {Timestamp.from(bound), Timestamp.from(w.occurredAt()),
                w.auditId(), limit}).orElse(new Object[] {Timestamp.from(bound), limit});
        return Jdbc.query(c, sql, AuditRecord::read, params);
    }

    static Map<UUID, Head> heads(Connection c, Collection<UUID> tenants) throws SQLException {
        return Jdbc.query(c, "SELECT tenant_id, seq, hash, occurred_at, audit_id FROM audit_chain_heads "
                + "WHERE tenant_id = ANY (?)", ChainStore::head, c.createArrayOf("uuid", tenants.toArray()))
                .stream().collect(Collectors.toMap(Head::tenantId, Function.identity()));
    }

    /** {@code n} fresh chain positions, ascending. */
    static List<Long> positions(Connection c, int n) throws SQLException {
        return Jdbc.query(c, "SELECT nextval('audit_chain_pos_seq') FROM generate_series(1, ?) ORDER BY 1",
                rs -> rs.getLong(1), n);
    }

    /**
     * Stores the links of {@code rows} (V059: one insert-only row each; the audit row itself is never rewritten),
     * all or none: a row linked already fails the statement on the key.
     */
    static void link(Connection c, List<AuditRecord> rows) throws SQLException {
        HexFormat hex = HexFormat.of();
        Jdbc.update(c, """
                INSERT INTO audit_links (audit_id, occurred_at, tenant_id, seq, hash, pos)
                SELECT v.id, v.at::timestamptz, v.tenant, v.seq, decode(v.hash, 'hex'), v.pos
                  FROM unnest(?::uuid[], ?::text[], ?::uuid[], ?::bigint[], ?::text[], ?::bigint[])
                       AS v(id, at, tenant, seq, hash, pos)""",
                c.createArrayOf("uuid", rows.stream().map(AuditRecord::id).toArray()),
                c.createArrayOf("text", rows.stream().map(AuditRecord::occurredAtText).toArray()),
                c.createArrayOf("uuid", rows.stream().map(AuditRecord::tenantId).toArray()),
                c.createArrayOf("bigint", rows.stream().map(AuditRecord::chainSeq).toArray()),
                c.createArrayOf("text", rows.stream().map(r -> hex.formatHex(r.chainHash())).toArray()),
                c.createArrayOf("bigint", rows.stream().map(AuditRecord::chainPos).toArray()));
    }

    static void saveHeads(Connection c, Collection<Head> heads) throws SQLException {
        for (Head h : heads) {
            Jdbc.update(c, """
                    INSERT INTO audit_chain_heads (tenant_id, seq, hash, occurred_at, audit_id) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash,
                           occurred_at = excluded.occurred_at, audit_id = excluded.audit_id, updated_at = now()""",
                    h.tenantId(), h.seq(), h.hash(), Timestamp.from(h.occurredAt()), h.auditId());
        }
    }

    static void saveWatermark(Connection c, Watermark w) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO audit_chain_watermark (singleton, occurred_at, audit_id) VALUES (true, ?, ?)
                ON CONFLICT (singleton) DO UPDATE SET occurred_at = excluded.occurred_at, audit_id = excluded.audit_id""",
                Timestamp.from(w.occurredAt()), w.auditId());
    }

    /** Every tenant's head. */
    public List<Head> heads() {
        return jdbc.query("SELECT tenant_id, seq, hash, occurred_at, audit_id FROM audit_chain_heads", ChainStore::head);
    }

    public Optional<Head> head(UUID tenant) {
        return jdbc.queryOne("SELECT tenant_id, seq, hash, occurred_at, audit_id FROM audit_chain_heads WHERE tenant_id = ?",
                ChainStore::head, tenant);
    }

    public Optional<Watermark> watermark() {
        return jdbc.queryOne("SELECT occurred_at, audit_id FROM audit_chain_watermark",
                rs -> new Watermark(rs.getTimestamp(1).toInstant(), rs.getObject(2, UUID.class)));
    }

    /** Heads with no seal at their current position. */
    public List<Head> unsealedHeads() {
        return jdbc.query("""
                SELECT h.tenant_id, h.seq, h.hash, h.occurred_at, h.audit_id FROM audit_chain_heads h
                 WHERE NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.tenant_id = h.tenant_id AND s.seq = h.seq)""",
                ChainStore::head);
    }

    public void saveSeal(Seal s) {
        jdbc.update("INSERT INTO audit_seals (tenant_id, seq, hash, sealed_at, key_id, mac) VALUES (?, ?, ?, ?, ?, ?)",
                s.tenantId(), s.seq(), s.hash(), Timestamp.from(s.sealedAt()), s.keyId().orElse(null), s.mac().orElse(null));
    }

    /** A tenant's seals with positions in {@code [fromSeq, toSeq]}, by position. */
    public List<Seal> seals(UUID tenant, long fromSeq, long toSeq) {
        return jdbc.query("SELECT tenant_id, seq, hash, sealed_at, key_id, mac FROM audit_seals "
                        + "WHERE tenant_id = ? AND seq BETWEEN ? AND ? ORDER BY seq, id",
                rs -> new Seal(rs.getObject(1, UUID.class), rs.getLong(2), rs.getBytes(3), rs.getTimestamp(4).toInstant(),
                        Optional.ofNullable(rs.getString(5)), Optional.ofNullable(rs.getBytes(6))), tenant, fromSeq, toSeq);
    }

    /** The newest seal of a tenant. */
    public Optional<Seal> lastSeal(UUID tenant) {
        List<Seal> s = jdbc.query("SELECT tenant_id, seq, hash, sealed_at, key_id, mac FROM audit_seals "
                        + "WHERE tenant_id = ? ORDER BY seq DESC, id DESC LIMIT 1",
                rs -> new Seal(rs.getObject(1, UUID.class), rs.getLong(2), rs.getBytes(3), rs.getTimestamp(4).toInstant(),
                        Optional.ofNullable(rs.getString(5)), Optional.ofNullable(rs.getBytes(6))), tenant);
        return s.stream().findFirst();
    }

    private static Head head(java.sql.ResultSet rs) throws SQLException {
        return new Head(rs.getObject(1, UUID.class), rs.getLong(2), rs.getBytes(3), rs.getTimestamp(4).toInstant(),
                rs.getObject(5, UUID.class));
    }
}
