package dev.backplane.kernel.audit.integrity;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * One audit row with everything the hash chain covers, as the chainer, verify, the archive and the SIEM stream
 * read it. Its {@link #content()} is the row as a map of wire names to JSON values: the chain hashes exactly that
 * (canonically, {@link AuditChain}), an archive line is that plus the chain fields, and reading a line back gives
 * the same map, so an archive verifies without the database.
 *
 * @param content the row's columns (not the chain's), as JSON values: uuids and times as strings, extras a map
 * @param chainSeq the row's place in its tenant's chain, 0 when not chained
 * @param chainHash the chain hash stored with the row, empty when not chained
 * @param chainPos the row's place in the chained order over all tenants, 0 when not chained
 */
public record AuditRecord(Map<String, Object> content, long chainSeq, byte[] chainHash, long chainPos) {

    /** The row's own columns, of {@code audit_rows r}. */
    public static final String ROW_COLUMNS = "r.id, r.tenant_id, r.occurred_at, r.principal, r.principal_kind, r.op_class, "
            + "r.op_id, r.connector_id, r.target, r.target_id, r.result_status, r.error_code, r.duration_ms, r.session_id, "
            + "r.parent_audit_id, r.work_ref, r.params_hash, r.approval_request_id, r.extras::text AS extras";

    /**
     * The columns {@link #read} expects: the row's ({@code audit_rows r}) and its link's ({@code audit_links l},
     * V059), as from {@link #LINKED} or {@link #withLink}.
     */
    public static final String COLUMNS = ROW_COLUMNS + ", l.seq AS chain_seq, l.hash AS chain_hash, l.pos AS chain_pos";

    /** The columns {@link #read} expects, for rows read without their links (not chained yet). */
    public static final String UNLINKED_COLUMNS = ROW_COLUMNS
            + ", NULL::bigint AS chain_seq, NULL::bytea AS chain_hash, NULL::bigint AS chain_pos";

    /** Linked rows: {@code audit_links l} with its row {@code r}. */
    public static final String LINKED = "audit_links l JOIN audit_rows r ON r.tenant_id = l.tenant_id "
            + "AND r.occurred_at = l.occurred_at AND r.id = l.audit_id";

    /**
     * Every row of {@code rows} (audit_rows or one of its partitions) as {@code r}, with its link {@code l} from
     * {@code links} (audit_links or the partition of the same month) where it has one.
     */
    public static String withLink(String rows, String links) {
        return rows + " r LEFT JOIN " + links + " l ON l.tenant_id = r.tenant_id AND l.occurred_at = r.occurred_at "
                + "AND l.audit_id = r.id";
    }

    public AuditRecord {
        content = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(content));
        chainHash = chainHash.clone();
    }

    @Override
    public byte[] chainHash() {
        return chainHash.clone();
    }

    public UUID id() {
        return UUID.fromString((String) content.get("id"));
    }

    public UUID tenantId() {
        return UUID.fromString((String) content.get("tenant_id"));
    }

    public Instant occurredAt() {
        return Instant.parse(occurredAtText());
    }

    /** The row's time as its content holds it (ISO-8601), for a caller that only passes it on: no parse. */
    public String occurredAtText() {
        return (String) content.get("occurred_at");
    }

    public String resultStatus() {
        return (String) content.get("result_status");
    }

    /** The same row with its place in the chain. */
    public AuditRecord chained(long seq, byte[] hash, long pos) {
        return new AuditRecord(content, seq, hash, pos);
    }

    /** The row as an archive line or a stream message carries it: its content and its chain fields. */
    public Map<String, Object> line() {
        Map<String, Object> line = new LinkedHashMap<>(content);
        line.put("chain_seq", chainSeq);
        line.put("chain_hash", HexFormat.of().formatHex(chainHash));
        line.put("chain_pos", chainPos);
        return line;
    }

    /** Reads back what {@link #line()} wrote (an archive line parsed as a map). */
    public static AuditRecord fromLine(Map<String, Object> line) {
        Map<String, Object> content = new LinkedHashMap<>(line);
        Object seq = content.remove("chain_seq");
        Object hash = content.remove("chain_hash");
        Object pos = content.remove("chain_pos");
        return new AuditRecord(content, seq == null ? 0 : ((Number) seq).longValue(),
                hash == null ? new byte[0] : HexFormat.of().parseHex((String) hash),
                pos == null ? 0 : ((Number) pos).longValue());
    }

    /** Reads a row selected with {@link #COLUMNS}. */
    public static AuditRecord read(ResultSet rs) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", string(rs.getObject("id")));
        m.put("tenant_id", string(rs.getObject("tenant_id")));
        m.put("occurred_at", rs.getTimestamp("occurred_at").toInstant().toString());
        for (String column : new String[] {"principal", "principal_kind", "op_class", "op_id", "connector_id", "target"}) {
            m.put(column, rs.getString(column));
        }
        m.put("target_id", string(rs.getObject("target_id")));
        m.put("result_status", rs.getString("result_status"));
        m.put("error_code", rs.getString("error_code"));
        m.put("duration_ms", rs.getObject("duration_ms"));
        m.put("session_id", string(rs.getObject("session_id")));
        m.put("parent_audit_id", string(rs.getObject("parent_audit_id")));
        m.put("work_ref", rs.getString("work_ref"));
        m.put("params_hash", rs.getString("params_hash"));
        m.put("approval_request_id", string(rs.getObject("approval_request_id")));
        String extras = rs.getString("extras");
        m.put("extras", "{}".equals(extras) ? Map.of() : AuditChain.parseObject(extras));
        byte[] hash = rs.getBytes("chain_hash");
        return new AuditRecord(m, rs.getLong("chain_seq"), hash == null ? new byte[0] : hash, rs.getLong("chain_pos"));
    }

    private static String string(Object value) {
        return value == null ? null : value.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AuditRecord r && content.equals(r.content) && chainSeq == r.chainSeq
                && java.util.Arrays.equals(chainHash, r.chainHash) && chainPos == r.chainPos;
    }

    @Override
    public int hashCode() {
        return Objects.hash(content, chainSeq, java.util.Arrays.hashCode(chainHash), chainPos);
    }

    @Override
    public String toString() {
        return "AuditRecord[" + content.get("id") + " seq " + chainSeq + "]";
    }
}
