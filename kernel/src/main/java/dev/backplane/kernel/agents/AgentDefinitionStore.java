package dev.backplane.kernel.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** SQL for the agent definitions of a tenant ({@code agent_definitions}); every statement is scoped by tenant. */
final class AgentDefinitionStore {

    /** The columns of one definition as written; {@code outputSchema} empty stores SQL NULL. */
    record Values(boolean enabled, String identityRef, String modelTier, String systemPrompt,
                  Map<String, Boolean> toolset, Optional<JsonNode> outputSchema, int turnBudget) {
    }

    private final Jdbc jdbc;
    private final Toolsets tools;

    AgentDefinitionStore(Jdbc jdbc, Toolsets tools) {
        this.jdbc = jdbc;
        this.tools = tools;
    }

    List<AgentDefinition> list(UUID tenant, int limit, int offset) {
        return jdbc.query("SELECT * FROM agent_definitions WHERE tenant_id = ? ORDER BY name LIMIT ? OFFSET ?",
                this::row, tenant, limit, offset);
    }

    Optional<AgentDefinition> find(UUID tenant, String name) {
        return jdbc.queryOne("SELECT * FROM agent_definitions WHERE tenant_id = ? AND name = ?", this::row,
                tenant, name);
    }

    /** Inserts the definition; false when one of that name exists (nothing written). */
    boolean insert(UUID tenant, String name, Values v, String createdBy) {
        return jdbc.update("""
                INSERT INTO agent_definitions (tenant_id, name, enabled, identity_ref, model_tier, system_prompt, toolset,
                                               output_schema, turn_budget, created_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""",
                tenant, name, v.enabled(), v.identityRef(), v.modelTier(), v.systemPrompt(), Jdbc.jsonb(v.toolset()),
                v.outputSchema().map(Jdbc::jsonb).orElse(null), v.turnBudget(), createdBy) > 0;
    }

    /** Replaces every writable column of the definition and stamps {@code updated_at}. */
    void update(UUID tenant, String name, Values v) {
        jdbc.update("""
                UPDATE agent_definitions SET enabled = ?, identity_ref = ?, model_tier = ?, system_prompt = ?,
                       toolset = ?, output_schema = ?, turn_budget = ?, updated_at = now()
                WHERE tenant_id = ? AND name = ?""",
                v.enabled(), v.identityRef(), v.modelTier(), v.systemPrompt(), Jdbc.jsonb(v.toolset()),
                v.outputSchema().map(Jdbc::jsonb).orElse(null), v.turnBudget(), tenant, name);
    }

    /** Deletes the definition; false when there was none. */
    boolean delete(UUID tenant, String name) {
        return jdbc.update("DELETE FROM agent_definitions WHERE tenant_id = ? AND name = ?", tenant, name) > 0;
    }

    private AgentDefinition row(ResultSet rs) throws SQLException {
        Map<String, Boolean> toolset = new LinkedHashMap<>();
        Jdbc.jsonObject(rs, "toolset").forEach((k, v) -> toolset.put(k, Boolean.TRUE.equals(v)));
        String schema = rs.getString("output_schema");
        Optional<JsonNode> outputSchema;
        try {
            outputSchema = schema == null ? Optional.empty() : Optional.of(JsonMapping.mapper().readTree(schema));
        } catch (JsonProcessingException e) {
            throw new SQLException("output_schema is not JSON", e);
        }
        return new AgentDefinition(rs.getString("name"), rs.getBoolean("enabled"), rs.getString("identity_ref"),
                rs.getString("model_tier"), rs.getString("system_prompt"), toolset, tools.effective(toolset),
                outputSchema, rs.getInt("turn_budget"), rs.getString("created_by"),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }
}
