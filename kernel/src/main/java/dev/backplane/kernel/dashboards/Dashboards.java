package dev.backplane.kernel.dashboards;

import dev.backplane.kernel.agents.AgentDefinitions;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Paging;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The dashboards of a tenant: create, list, show, delete. Member sensors must be the tenant's own;
 * recipients are checked for shape here and against the tenant's mail-recipient policy each time mail
 * goes out (the policy may change after the dashboard is made).
 */
public final class Dashboards {

    /** The body of create. */
    public record Write(String name, String description, String investigatorPrompt, String investigatorAgent,
                        String notifyEmail, String notifyMinState, List<String> sensorIds) {
    }

    public static final Paging.Size PAGE = new Paging.Size(100, 500);
    /** SPEC's limit on the investigator prompt. */
    static final int MAX_PROMPT_CHARS = 4096;
    static final int MAX_NAME_CHARS = 200;
    static final int MAX_DESCRIPTION_CHARS = 4096;
    static final int MAX_SENSORS = 500;

    private final Jdbc jdbc;
    private final AgentDefinitions agents;

    public Dashboards(Jdbc jdbc, AgentDefinitions agents) {
        this.jdbc = jdbc;
        this.agents = agents;
    }

    public Dashboard create(Caller caller, Write w) {
        String name = text(w.name(), "name", MAX_NAME_CHARS, true);
        if (name.isBlank() || name.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw invalid("name must be one line of text (it is a mail subject), not blank", "name");
        }
        Optional<String> description = Optional.ofNullable(text(w.description(), "description", MAX_DESCRIPTION_CHARS,
                false));
        Optional<String> prompt = Optional.ofNullable(text(w.investigatorPrompt(), "investigator_prompt",
                MAX_PROMPT_CHARS, false));
        Optional<String> agent = Optional.ofNullable(w.investigatorAgent()).filter(a -> !a.isBlank());
        agent.ifPresent(a -> {
            try {
                agents.show(caller.tenantId(), a);
            } catch (DomainException notFound) {
                throw DashboardErrors.UNKNOWN_AGENT.error("no agent definition '" + a + "' in this tenant (svc agent list)",
                        Map.of("field", "investigator_agent"));
            }
        });
        Optional<String> recipients = Optional.ofNullable(w.notifyEmail()).filter(e -> !e.isBlank())
                .map(e -> String.join(",", Recipients.parse(e)));
        String minState = w.notifyMinState() == null ? "critical" : w.notifyMinState();
        if (!minState.equals("degraded") && !minState.equals("critical")) {
            throw invalid("notify_min_state must be degraded or critical", "notify_min_state");
        }
        List<UUID> sensors = sensorIds(w.sensorIds());
        UUID id = UUID.randomUUID();
        try {
            jdbc.inTransaction(c -> {
                if (!Jdbc.query(c, "SELECT 1 FROM dashboards WHERE tenant_id = ? AND name = ?", rs -> 1, caller.tenantId(),
                        name).isEmpty()) {
                    throw exists(name);
                }
                Set<UUID> known = new java.util.HashSet<>(Jdbc.query(c, "SELECT id FROM sensors WHERE tenant_id = ? "
                        + "AND id = ANY(?::uuid[]) FOR SHARE", rs -> rs.getObject(1, UUID.class), caller.tenantId(),
                        strings(sensors)));
                for (UUID s : sensors) {
                    if (!known.contains(s)) {
                        throw DashboardErrors.UNKNOWN_SENSOR.error("no sensor " + s + " in this tenant",
                                Map.of("field", "sensor_ids", "sensor_id", s.toString()));
                    }
                }
                Jdbc.update(c, """
                        INSERT INTO dashboards (id, tenant_id, name, description, investigator_prompt, investigator_agent,
                               notify_email, notify_min_state, rollup_state, created_by)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", id, caller.tenantId(), name, description.orElse(null),
                        prompt.orElse(null), agent.orElse(null), recipients.orElse(null), minState,
                        rollup(c, sensors), caller.sub());
                for (UUID s : sensors) {
                    Jdbc.update(c, "INSERT INTO dashboard_sensors (dashboard_id, sensor_id) VALUES (?, ?)", id, s);
                }
                return null;
            });
        } catch (Jdbc.DataAccessException e) {
            if (e.getCause() instanceof SQLException sql && "23505".equals(sql.getSQLState())) {
                throw exists(name);
            }
            throw e;
        }
        return show(caller.tenantId(), id);
    }

    /** The roll-up of these sensors now, on {@code c}. */
    private static String rollup(Connection c, List<UUID> sensors) throws SQLException {
        return Rollup.of(Jdbc.query(c, "SELECT coalesce(last_state, 'unknown') FROM sensors WHERE id = ANY(?::uuid[])",
                rs -> rs.getString(1), (Object) strings(sensors)));
    }

    private static String[] strings(List<UUID> ids) {
        return ids.stream().map(UUID::toString).toArray(String[]::new);
    }

    public List<Dashboard> list(UUID tenant, int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        List<UUID> ids = jdbc.query("SELECT id FROM dashboards WHERE tenant_id = ? ORDER BY name, id LIMIT ? OFFSET ?",
                rs -> rs.getObject(1, UUID.class), tenant, page.limit(), page.offset());
        List<Dashboard> out = new ArrayList<>();
        for (UUID id : ids) {
            find(tenant, id).ifPresent(out::add); // one deleted meanwhile is left out
        }
        return out;
    }

    public Dashboard show(UUID tenant, UUID id) {
        return find(tenant, id).orElseThrow(() -> notFound(id.toString()));
    }

    private Optional<Dashboard> find(UUID tenant, UUID id) {
        List<Dashboard.Member> members = jdbc.query("""
                SELECT s.id, s.name, coalesce(s.last_state, 'unknown') FROM dashboard_sensors d JOIN sensors s ON s.id = d.sensor_id
                 WHERE d.dashboard_id = ? AND s.tenant_id = ? ORDER BY s.name, s.id""",
                rs -> new Dashboard.Member(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3)), id, tenant);
        return jdbc.queryOne("SELECT * FROM dashboards WHERE tenant_id = ? AND id = ?", rs -> row(rs, members), tenant, id);
    }

    /** What a dashboard id answers when it is not a uuid or names no dashboard of the tenant. */
    public static DomainException notFound(String id) {
        return DashboardErrors.DASHBOARD_NOT_FOUND.error("no dashboard " + id + " in this tenant");
    }

    /** Deletes the dashboard (its sensors stay). */
    public void delete(Caller caller, UUID id) {
        if (jdbc.update("DELETE FROM dashboards WHERE tenant_id = ? AND id = ?", caller.tenantId(), id) == 0) {
            throw notFound(id.toString());
        }
    }

    private static List<UUID> sensorIds(List<String> ids) {
        if (ids == null) {
            return List.of();
        }
        if (ids.size() > MAX_SENSORS) {
            throw invalid("at most " + MAX_SENSORS + " sensors per dashboard", "sensor_ids");
        }
        Set<UUID> out = new LinkedHashSet<>();
        for (String s : ids) {
            try {
                out.add(UUID.fromString(s == null ? "" : s.trim()));
            } catch (IllegalArgumentException e) {
                throw DashboardErrors.UNKNOWN_SENSOR.error("sensor id '" + s + "' is not a uuid",
                        Map.of("field", "sensor_ids", "sensor_id", String.valueOf(s)));
            }
        }
        return List.copyOf(out);
    }

    private static String text(String value, String field, int max, boolean required) {
        if (value == null) {
            if (required) {
                throw invalid(field + " is required", field);
            }
            return null;
        }
        if (value.length() > max) {
            throw invalid(field + " is longer than " + max + " characters (" + value.length() + ")", field);
        }
        if (value.chars().anyMatch(ch -> ch == 0)) {
            throw invalid(field + " contains a NUL character", field);
        }
        return value;
    }

    static DomainException invalid(String message, String field) {
        return DashboardErrors.INVALID_DASHBOARD.error(message, Map.of("field", field));
    }

    private static DomainException exists(String name) {
        return DashboardErrors.DASHBOARD_EXISTS.error("a dashboard named '" + name + "' exists in this tenant",
                Map.of("field", "name"));
    }

    private static Dashboard row(ResultSet rs, List<Dashboard.Member> members) throws SQLException {
        return new Dashboard(rs.getObject("id", UUID.class), rs.getString("name"),
                Optional.ofNullable(rs.getString("description")), Optional.ofNullable(rs.getString("investigator_prompt")),
                Optional.ofNullable(rs.getString("investigator_agent")), Optional.ofNullable(rs.getString("notify_email")),
                rs.getString("notify_min_state"), members.stream().map(Dashboard.Member::id).toList(), members,
                Rollup.of(members.stream().map(Dashboard.Member::state).toList()),
                Optional.ofNullable(rs.getTimestamp("last_notified_at")).map(Timestamp::toInstant),
                rs.getString("created_by"), rs.getTimestamp("created_at").toInstant());
    }
}
