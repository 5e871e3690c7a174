package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonSchemas;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The shape rules of an agent definition's create and edit body: name, model tier, prompt and budget limits, the
 * toolset (names of the run's tools only) and the output schema (a valid JSON Schema). Who the runs act as is
 * checked by {@link AgentDefinitions}, which needs the tenant's principals.
 */
final class AgentDefinitionChecks {

    static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    static final Set<String> TIERS = Set.of("standard", "fast", "deep");
    static final int MAX_PROMPT_CHARS = 65_536;
    static final int MAX_SCHEMA_CHARS = 65_536;

    /** The fields a write gives, checked; empty where the write leaves a field alone. */
    record Checked(Optional<Map<String, Boolean>> toolset, Optional<Optional<JsonNode>> outputSchema) {
    }

    private final Set<String> tools;
    private final Schema metaSchema = JsonSchemas.metaSchema();

    /** @param tools every tool a toolset may name */
    AgentDefinitionChecks(Set<String> tools) {
        this.tools = tools;
    }

    /** The name of a new definition: 1-63 of a-z, 0-9 and '-', starting and ending with a letter or digit. */
    static void name(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw invalid("name", "name must be 1-63 of a-z, 0-9 and '-', starting and ending with a letter or digit");
        }
    }

    /** The fields of a create or edit body other than name and identity. */
    Checked check(AgentDefinitions.Write w) {
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
                    + "the read-only set)", Map.of("field", "toolset", "tools", tools));
        }
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (var e : node.properties()) {
            if (!tools.contains(e.getKey())) {
                throw AgentErrors.INVALID_TOOLSET.error("unknown tool '" + e.getKey() + "' in toolset",
                        Map.of("field", "toolset", "tools", tools));
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

    static DomainException invalid(String field, String message) {
        return AgentErrors.INVALID_AGENT.error(message, Map.of("field", field));
    }
}
