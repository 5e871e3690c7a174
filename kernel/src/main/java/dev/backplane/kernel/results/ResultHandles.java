package dev.backplane.kernel.results;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Stored set results: a handle owned by (tenant, principal) with an expiry, and one JSONB document
 * per row. A handle that is expired, missing or someone else's is indistinguishable to the caller:
 * {@code handle_not_found}, with a message to re-run the operation.
 */
public final class ResultHandles {

    /** A live handle. */
    public record Handle(UUID id, String opId, int rowCount, Instant expiresAt, Set<String> keys) {
    }

    private final ResultStore store;
    private final Duration ttl;

    /** The default most bytes of JSON one stored result may hold ({@code results.handle-max-bytes}). */
    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

    private final long maxBytes;

    public ResultHandles(Jdbc jdbc, Duration ttl) {
        this(jdbc, ttl, DEFAULT_MAX_BYTES);
    }

    /** @param maxBytes the most bytes of JSON one stored result may hold; a larger one is not stored */
    public ResultHandles(Jdbc jdbc, Duration ttl, long maxBytes) {
        this.store = new ResultStore(jdbc);
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
        Set<String> keys = new TreeSet<>();
        rows.forEach(r -> keys.addAll(r.keySet()));
        Handle handle = new Handle(UUID.randomUUID(), opId, rows.size(),
                Instant.now().plus(ttl).truncatedTo(ChronoUnit.MILLIS), keys);
        ResultStore.insert(c, handle, tenant, principal, rows);
        return handle;
    }

    public Handle store(UUID tenant, String principal, String opId, List<Map<String, Object>> rows) {
        return store.inTransaction(c -> store(c, tenant, principal, opId, rows));
    }

    /** The caller's live handle, or {@code handle_not_found}. */
    public Handle require(UUID tenant, String principal, String handleId) {
        UUID id;
        try {
            id = UUID.fromString(handleId);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw notFound(String.valueOf(handleId));
        }
        Optional<Handle> h = store.findLive(id, tenant, principal);
        return h.orElseThrow(() -> notFound(handleId));
    }

    /** PostgreSQL's jsonb cannot hold U+0000: such characters in a plugin's rows become U+FFFD (as they are stored). */
    static Object withoutNul(Object value) {
        if (value instanceof String s) {
            return s.indexOf('\u0000') < 0 ? s : s.replace('\u0000', '\uFFFD');
        }
        if (value instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
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
        return store.deleteExpired();
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
