package dev.backplane.kernel.dashboards;

import dev.backplane.kernel.agents.AgentDefinitions;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Paging;
import java.sql.SQLException;
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

    private final DashboardStore store;
    private final AgentDefinitions agents;

    public Dashboards(Jdbc jdbc, AgentDefinitions agents) {
        this.store = new DashboardStore(jdbc);
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
            DashboardStore.NewDashboard row = new DashboardStore.NewDashboard(id, caller.tenantId(), name, description,
                    prompt, agent, recipients, minState, caller.sub());
            store.inTransaction(c -> {
                if (DashboardStore.nameTaken(c, caller.tenantId(), name)) {
                    throw exists(name);
                }
                Set<UUID> known = DashboardStore.lockSensors(c, caller.tenantId(), sensors);
                for (UUID s : sensors) {
                    if (!known.contains(s)) {
                        throw DashboardErrors.UNKNOWN_SENSOR.error("no sensor " + s + " in this tenant",
                                Map.of("field", "sensor_ids", "sensor_id", s.toString()));
                    }
                }
                DashboardStore.insert(c, row, Rollup.of(DashboardStore.states(c, sensors)), sensors);
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

    public List<Dashboard> list(UUID tenant, int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        List<UUID> ids = store.listIds(tenant, page.limit(), page.offset());
        List<Dashboard> out = new ArrayList<>();
        for (UUID id : ids) {
            store.find(tenant, id).ifPresent(out::add); // one deleted meanwhile is left out
        }
        return out;
    }

    public Dashboard show(UUID tenant, UUID id) {
        return store.find(tenant, id).orElseThrow(() -> notFound(id.toString()));
    }

    /** What a dashboard id answers when it is not a uuid or names no dashboard of the tenant. */
    public static DomainException notFound(String id) {
        return DashboardErrors.DASHBOARD_NOT_FOUND.error("no dashboard " + id + " in this tenant");
    }

    /** Deletes the dashboard (its sensors stay). */
    public void delete(Caller caller, UUID id) {
        if (!store.delete(caller.tenantId(), id)) {
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
}
