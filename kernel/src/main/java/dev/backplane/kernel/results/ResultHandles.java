package dev.backplane.kernel.results;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.postgresql.util.PGobject;

/**
 * Stored set results: a handle owned by (tenant, principal) with an expiry, and one JSONB document
 * per row. A handle that is expired, missing or someone else's is indistinguishable to the caller:
 * {@code handle_not_found}, with a message to re-run the operation.
 */
public final class ResultHandles {

    /** A live handle. */
    public record Handle(UUID id, String opId, int rowCount, Instant expiresAt, Set<String> keys) {
    }

    private final Jdbc jdbc;
    private final Duration ttl;

    /** The default most bytes of JSON one stored result may hold ({@code results.handle-max-bytes}). */
    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

    private final long maxBytes;

    public ResultHandles(Jdbc jdbc, Duration ttl) {
        this(jdbc, ttl, DEFAULT_MAX_BYTES);
    }

    /** @param maxBytes the most bytes of JSON one stored result may hold; a larger one is not stored */
    public ResultHandles(Jdbc jdbc, Duration ttl, long maxBytes) {
        this.jdbc = jdbc;
        this.ttl = ttl;
        this.maxBytes = maxBytes;
    }

    /** The most bytes of JSON one stored result may hold: a larger result is not stored (no drill-in). */
    public long maxBytes() {
        return maxBytes;
    }

    /** Stores {@code rows} in the caller's transaction and returns the handle. */
    public Handle store(Connection c, UUID tenant, String principal, String opId, List<Map<String, Object>> rows)
            throws SQLException {
        UUID id = UUID.randomUUID();
        Instant expires = Instant.now().plus(ttl).truncatedTo(ChronoUnit.MILLIS);
        Set<String> keys = new TreeSet<>();
        rows.forEach(r -> keys.addAll(r.keySet()));
        Jdbc.update(c, """
                INSERT INTO results_handles (id, tenant_id, principal, op_id, row_count, keys, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)""", id, tenant, principal, opId, rows.size(),
                c.createArrayOf("text", keys.toArray()), Timestamp.from(expires));
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO results_rows (handle_id, ordinal, row) VALUES (?, ?, ?)")) {
            int i = 0;
            for (Map<String, Object> row : rows) {
                PGobject json = new PGobject();
                json.setType("jsonb");
                json.setValue(JsonMapping.write(withoutNul(row)));
                ps.setObject(1, id);
                ps.setInt(2, i++);
                ps.setObject(3, json);
                ps.addBatch();
                if (i % 500 == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
        return new Handle(id, opId, rows.size(), expires, keys);
    }

    public Handle store(UUID tenant, String principal, String opId, List<Map<String, Object>> rows) {
        return jdbc.inTransaction(c -> store(c, tenant, principal, opId, rows));
    }

    /** The caller's live handle, or {@code handle_not_found}. */
    public Handle require(UUID tenant, String principal, String handleId) {
        UUID id;
        try {
            id = UUID.fromString(handleId);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw notFound(String.valueOf(handleId));
        }
        Optional<Handle> h = jdbc.queryOne("""
                SELECT id, op_id, row_count, expires_at, keys FROM results_handles
                 WHERE id = ? AND tenant_id = ? AND principal = ? AND expires_at > now()""",
                rs -> new Handle(rs.getObject(1, UUID.class), rs.getString(2), rs.getInt(3),
                        rs.getTimestamp(4).toInstant(), new TreeSet<>(List.of((String[]) rs.getArray(5).getArray()))),
                id, tenant, principal);
        return h.orElseThrow(() -> notFound(handleId));
    }

    /** PostgreSQL's jsonb cannot hold U+0000: such characters in a plugin's rows become U+FFFD. */
    static Object withoutNul(Object value) {
        if (value instanceof String s) {
            return s.indexOf('\u0000') < 0 ? s : s.replace('\u0000', '\uFFFD');
        }
        if (value instanceof Map<?, ?> m) {
            Map<Object, Object> out = new java.util.LinkedHashMap<>();
            m.forEach((k, v) -> out.put(withoutNul(k), withoutNul(v)));
            return out;
        }
        if (value instanceof List<?> l) {
            return l.stream().map(ResultHandles::withoutNul).toList();
        }
        return value;
    }

    /** Deletes expired handles (and their rows); returns how many. */
    public int sweepExpired() {
        return jdbc.update("DELETE FROM results_handles WHERE expires_at <= now()");
    }

    static DomainException notFound(String handleId) {
        return ResultErrors.HANDLE_NOT_FOUND.error("result handle " + handleId + " does not exist "
                + "or has expired; re-run the operation to get a fresh result");
    }

    /** Deleting expired result handles. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("result-handles-sweep", Duration.ofMinutes(10), this::sweepExpired));
    }
}
