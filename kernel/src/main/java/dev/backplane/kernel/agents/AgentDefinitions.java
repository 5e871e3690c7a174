package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.tools.ToolRegistry;
import dev.backplane.kernel.util.JsonSchemas;
import dev.backplane.kernel.governance.AgentPrincipals;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.Paging;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Agent definitions of a tenant: list, show, create, edit (partial), delete. Writes are tenant_admin
 * (declared on the routes) and leave a governance audit row (the route-level trail).
 */
public final class AgentDefinitions {

    /**
     * The body of create and edit. On edit every field is optional; {@code output_schema: null} clears
     * the schema (absent keeps it).
     */
    public record Write(String name, Boolean enabled, String identityRef, String modelTier, String systemPrompt,
                        JsonNode toolset, JsonNode outputSchema, Integer turnBudget) {
    }

    static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    static final Set<String> TIERS = Set.of("standard", "fast", "deep");
    static final int MAX_PROMPT_CHARS = 65_536;
    static final int MAX_SCHEMA_CHARS = 65_536;
    public static final Paging.Size PAGE = new Paging.Size(100, 500);

    private final Jdbc jdbc;
    private final AgentPrincipals principals;
    private final Toolsets tools;
    private final com.networknt.schema.Schema metaSchema = JsonSchemas.metaSchema();

    /** @param tools the agent tools (an agent run's registry): what a toolset may name, and which only read */
    public AgentDefinitions(Jdbc jdbc, AgentPrincipals principals, ToolRegistry tools) {
        this.tools = new Toolsets(tools.all());
        this.jdbc = jdbc;
        this.principals = principals;
    }

    public List<AgentDefinition> list(UUID tenant, int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        return jdbc.query("SELECT * FROM agent_definitions WHERE tenant_id = ? ORDER BY name LIMIT ? OFFSET ?",
                this::row, tenant, page.limit(), page.offset());
    }

    public AgentDefinition show(UUID tenant, String name) {
        return jdbc.queryOne("SELECT * FROM agent_definitions WHERE tenant_id = ? AND name = ?", this::row,
                tenant, name).orElseThrow(() -> AgentErrors.AGENT_NOT_FOUND.error("no agent definition '" + name
                + "' in this tenant (svc agent list shows them)", Map.of("name", String.valueOf(name))));
    }

    public AgentDefinition create(Caller caller, Write w) {
        if (w.name() == null || !NAME.matcher(w.name()).matches()) {
            throw invalid("name", "name must be 1-63 of a-z, 0-9 and '-', starting and ending with a letter or digit");
        }
        if (w.identityRef() == null) {
            throw invalid("identity_ref", "identity_ref is required: the agent principal the runs act as "
                    + "(svc agent-principal list)");
        }
        Checked c = check(caller.tenantId(), w);
        int inserted = jdbc.update("""
                INSERT INTO agent_definitions (tenant_id, name, enabled, identity_ref, model_tier, system_prompt, toolset,
                                               output_schema, turn_budget, created_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""",
                caller.tenantId(), w.name(), w.enabled() == null || w.enabled(), w.identityRef(),
                Optional.ofNullable(w.modelTier()).orElse("standard"), Optional.ofNullable(w.systemPrompt()).orElse(""),
                Jdbc.jsonb(c.toolset().orElse(Map.of())), c.outputSchema().flatMap(s -> s).map(Jdbc::jsonb).orElse(null),
                Optional.ofNullable(w.turnBudget()).orElse(20), caller.sub());
        if (inserted == 0) {
            throw AgentErrors.AGENT_EXISTS.error("agent definition '" + w.name() + "' already exists (svc agent edit "
                    + "changes it)", Map.of("name", w.name()));
        }
        return show(caller.tenantId(), w.name());
    }

    public AgentDefinition edit(Caller caller, String name, Write w) {
        AgentDefinition before = show(caller.tenantId(), name);
        if (w.name() != null && !w.name().equals(name)) {
            throw invalid("name", "an agent definition cannot be renamed; create a new one");
        }
        Checked c = check(caller.tenantId(), w);
        jdbc.update("""
                UPDATE agent_definitions SET enabled = ?, identity_ref = ?, model_tier = ?, system_prompt = ?,
                       toolset = ?, output_schema = ?, turn_budget = ?, updated_at = now()
                WHERE tenant_id = ? AND name = ?""",
                w.enabled() == null ? before.enabled() : w.enabled(),
                w.identityRef() == null ? before.identityRef() : w.identityRef(),
                w.modelTier() == null ? before.modelTier() : w.modelTier(),
                w.systemPrompt() == null ? before.systemPrompt() : w.systemPrompt(),
                Jdbc.jsonb(c.toolset().orElse(before.toolset())),
                c.outputSchema().orElse(before.outputSchema()).map(Jdbc::jsonb).orElse(null),
                w.turnBudget() == null ? before.turnBudget() : w.turnBudget(), caller.tenantId(), name);
        return show(caller.tenantId(), name);
    }

    public void delete(Caller caller, String name) {
        if (jdbc.update("DELETE FROM agent_definitions WHERE tenant_id = ? AND name = ?", caller.tenantId(), name) == 0) {
            show(caller.tenantId(), name); // answers agent_not_found
        }
    }

    /** The fields a write gives, checked; empty where the write leaves a field alone. */
    private record Checked(Optional<Map<String, Boolean>> toolset, Optional<Optional<JsonNode>> outputSchema) {
    }

    private Checked check(UUID tenant, Write w) {
        if (w.identityRef() != null) {
            Optional<Boolean> revoked = principals.agentRevoked(tenant, w.identityRef());
            if (revoked.isEmpty()) {
                throw AgentErrors.UNKNOWN_IDENTITY.error("identity_ref '" + w.identityRef() + "' is not an agent "
                        + "principal of this tenant; register it first (svc agent-principal register)",
                        Map.of("field", "identity_ref"));
            }
            if (revoked.get()) {
                throw AgentErrors.UNKNOWN_IDENTITY.error("agent principal '" + w.identityRef() + "' is revoked (kill "
                        + "switch); a run could not act as it", Map.of("field", "identity_ref"));
            }
        }
        if (w.modelTier() != null && !TIERS.contains(w.modelTier())) {
            throw invalid("model_tier", "model_tier must be one of standard, fast, deep");
        }
        if (w.systemPrompt() != null && w.systemPrompt().length() > MAX_PROMPT_CHARS) {
            throw invalid("system_prompt", "system_prompt is longer than " + MAX_PROMPT_CHARS + " characters");
        }
        if (w.turnBudget() != null && (w.turnBudget() < 1 || w.turnBudget() > 1000)) {
            throw invalid("turn_budget", "turn_budget must be 1..1000, got " + w.turnBudget());
        }
        return new Checked(Optional.ofNullable(w.toolset()).map(this::toolset),
                Optional.ofNullable(w.outputSchema()).map(this::outputSchema));
    }

    private Map<String, Boolean> toolset(JsonNode node) {
        if (!node.isObject()) {
            throw AgentErrors.INVALID_TOOLSET.error("toolset must be a JSON object of tool name to true/false ({} is "
                    + "the read-only set)", Map.of("field", "toolset", "tools", tools.all()));
        }
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (var e : node.properties()) {
            if (!tools.all().contains(e.getKey())) {
                throw AgentErrors.INVALID_TOOLSET.error("unknown tool '" + e.getKey() + "' in toolset",
                        Map.of("field", "toolset", "tools", tools.all()));
            }
            if (!e.getValue().isBoolean()) {
                throw AgentErrors.INVALID_TOOLSET.error("toolset." + e.getKey() + " must be true or false",
                        Map.of("field", "toolset"));
            }
            out.put(e.getKey(), e.getValue().asBoolean());
        }
        return out;
    }

    /** An output schema: a JSON Schema (draft 2020-12) object, checked against the meta-schema; null clears it. */
    private Optional<JsonNode> outputSchema(JsonNode node) {
        if (node.isNull()) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            throw AgentErrors.INVALID_OUTPUT_SCHEMA.error("output_schema must be a JSON Schema object (or null)",
                    Map.of("field", "output_schema"));
        }
        if (node.toString().length() > MAX_SCHEMA_CHARS) {
            throw AgentErrors.INVALID_OUTPUT_SCHEMA.error("output_schema is larger than " + MAX_SCHEMA_CHARS
                    + " characters", Map.of("field", "output_schema"));
        }
        List<String> problems = JsonSchemas.problems(metaSchema, node);
        if (!problems.isEmpty()) {
            throw AgentErrors.INVALID_OUTPUT_SCHEMA.error("output_schema is not a valid JSON Schema (draft 2020-12)",
                    Map.of("field", "output_schema", "validation_errors", problems));
        }
        return Optional.of(node);
    }

    private static dev.backplane.kernel.errors.DomainException invalid(String field, String message) {
        return AgentErrors.INVALID_AGENT.error(message, Map.of("field", field));
    }

    private AgentDefinition row(ResultSet rs) throws SQLException {
        Map<String, Boolean> toolset = new LinkedHashMap<>();
        Jdbc.jsonObject(rs, "toolset").forEach((k, v) -> toolset.put(k, Boolean.TRUE.equals(v)));
        String schema = rs.getString("output_schema");
        Optional<JsonNode> outputSchema;
        try {
            outputSchema = schema == null ? Optional.empty() : Optional.of(JsonMapping.mapper().readTree(schema));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new SQLException("output_schema is not JSON", e);
        }
        return new AgentDefinition(rs.getString("name"), rs.getBoolean("enabled"), rs.getString("identity_ref"),
                rs.getString("model_tier"), rs.getString("system_prompt"), toolset, tools.effective(toolset),
                outputSchema, rs.getInt("turn_budget"), rs.getString("created_by"),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }
}
