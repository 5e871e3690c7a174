package dev.backplane.kernel.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The SQL of {@code event_sources}: one statement per method, no rules. */
final class EventSourceStore {

    private final Jdbc jdbc;

    EventSourceStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** True when a source has this slug (in any tenant) or this name in the tenant. */
    boolean slugOrNameTaken(String slug, UUID tenant, String name) {
        return jdbc.queryOne("SELECT 1 FROM event_sources WHERE slug = ? OR (tenant_id = ? AND name = ?)", rs -> 1,
                slug, tenant, name).isPresent();
    }

    /** Inserts a source; false when its slug or name is taken (a unique violation), nothing written then. */
    boolean insert(UUID id, UUID tenant, String slug, String name, EventNormalizer.Kind kind,
                   EventSource.AuthStrategy strategy, JsonNode extras, String status, String by) {
        try {
            jdbc.update("""
                    INSERT INTO event_sources (id, tenant_id, slug, name, kind, auth_strategy, extras, status, created_by,
                           updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", id, tenant, slug, name,
                    kind.wire(), strategy.wire(), Jdbc.jsonb(extras), status, by, by);
            return true;
        } catch (Jdbc.DataAccessException e) {
            if (e.getCause() instanceof SQLException s && "23505".equals(s.getSQLState())) {
                return false;
            }
            throw e;
        }
    }

    List<EventSource> list(UUID tenant) {
        return jdbc.query("SELECT * FROM event_sources WHERE tenant_id = ? ORDER BY name", EventSourceStore::map,
                tenant);
    }

    /** A source of this tenant by slug or name. */
    Optional<EventSource> find(UUID tenant, String slugOrName) {
        return jdbc.queryOne("SELECT * FROM event_sources WHERE tenant_id = ? AND (slug = ? OR name = ?)",
                EventSourceStore::map, tenant, slugOrName, slugOrName);
    }

    /** The source with this slug, whatever its tenant. */
    Optional<EventSource> bySlug(String slug) {
        return jdbc.queryOne("SELECT * FROM event_sources WHERE slug = ?", EventSourceStore::map, slug);
    }

    void update(UUID id, String name, EventSource.AuthStrategy strategy, JsonNode extras, String status,
                int secretVersion, Optional<Instant> previousSecretUntil, String by) {
        jdbc.update("""
                UPDATE event_sources SET name = ?, auth_strategy = ?, extras = ?, status = ?, secret_version = ?,
                       previous_secret_until = ?, updated_at = now(), updated_by = ? WHERE id = ?""",
                name, strategy.wire(), Jdbc.jsonb(extras), status, secretVersion,
                previousSecretUntil.map(Timestamp::from).orElse(null), by, id);
    }

    void setStatus(UUID id, String status, String by) {
        jdbc.update("UPDATE event_sources SET status = ?, updated_at = now(), updated_by = ? WHERE id = ?", status,
                by, id);
    }

    void delete(UUID id) {
        jdbc.update("DELETE FROM event_sources WHERE id = ?", id);
    }

    private static EventSource map(ResultSet rs) throws SQLException {
        JsonNode extras;
        try {
            extras = JsonMapping.mapper().readTree(rs.getString("extras"));
        } catch (JsonProcessingException e) {
            throw new SQLException("event source extras are not JSON", e);
        }
        Timestamp prev = rs.getTimestamp("previous_secret_until");
        return new EventSource(rs.getObject("id", UUID.class), rs.getObject("tenant_id", UUID.class),
                rs.getString("slug"), rs.getString("name"),
                EventNormalizer.Kind.fromWire(rs.getString("kind")).orElseThrow(),
                EventSource.AuthStrategy.fromWire(rs.getString("auth_strategy")).orElseThrow(), extras,
                rs.getString("status"), rs.getInt("secret_version"), Optional.ofNullable(prev).map(Timestamp::toInstant),
                rs.getTimestamp("created_at").toInstant(), rs.getString("created_by"),
                rs.getTimestamp("updated_at").toInstant(), rs.getString("updated_by"));
    }
}
