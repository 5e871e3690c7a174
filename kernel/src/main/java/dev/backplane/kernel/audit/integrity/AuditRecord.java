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

    /** The columns a read of full records selects, in the order {@link #read} expects. */
    public static final String COLUMNS = "id, tenant_id, occurred_at, principal, principal_kind, op_class, op_id, "
            + "connector_id, target, target_id, result_status, error_code, duration_ms, session_id, parent_audit_id, "
            + "work_ref, params_hash, approval_request_id, extras::text AS extras, chain_seq, chain_hash, chain_pos";

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
        return Instant.parse((String) content.get("occurred_at"));
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
