package dev.backplane.kernel.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shape rules of an agent definition's body, without a database: name, tier, limits, toolset, output schema. */
class AgentDefinitionChecksTest {

    private final AgentDefinitionChecks checks = new AgentDefinitionChecks(Set.of("docs.search", "kb.write"));

    private static AgentDefinitions.Write write(String tier, String prompt, JsonNode toolset, JsonNode schema,
                                                Integer budget) {
        return new AgentDefinitions.Write(null, null, null, tier, prompt, toolset, schema, budget);
    }

    private static JsonNode json(String text) throws Exception {
        return JsonMapping.mapper().readTree(text);
    }

    private static String code(Runnable r) {
        try {
            r.run();
            return "none";
        } catch (DomainException e) {
            return e.code() + ":" + e.extras().get("field");
        }
    }

    @Test
    void namesAreLowercaseDnsLabels() {
        AgentDefinitionChecks.name("triage");
        AgentDefinitionChecks.name("a");
        AgentDefinitionChecks.name("x".repeat(63));
        for (String bad : new String[] {null, "", "Triage", "-triage", "triage-", "x".repeat(64), "a_b"}) {
            assertThat(code(() -> AgentDefinitionChecks.name(bad))).as(String.valueOf(bad)).isEqualTo("invalid_agent:name");
        }
    }

    @Test
    void tierPromptAndBudgetAreBounded() {
        assertThat(code(() -> checks.check(write("deep", "x".repeat(65_536), null, null, 1000)))).isEqualTo("none");
        assertThat(code(() -> checks.check(write("huge", null, null, null, null)))).isEqualTo("invalid_agent:model_tier");
        assertThat(code(() -> checks.check(write(null, "x".repeat(65_537), null, null, null))))
                .isEqualTo("invalid_agent:system_prompt");
        assertThat(code(() -> checks.check(write(null, null, null, null, 0)))).isEqualTo("invalid_agent:turn_budget");
        assertThat(code(() -> checks.check(write(null, null, null, null, 1001)))).isEqualTo("invalid_agent:turn_budget");
    }

    @Test
    void aToolsetNamesKnownToolsWithBooleans() throws Exception {
        assertThat(checks.check(write(null, null, json("{\"kb.write\": true, \"docs.search\": false}"), null, null))
                .toolset()).contains(Map.of("kb.write", true, "docs.search", false));
        assertThat(checks.check(write(null, null, null, null, null)).toolset()).isEmpty();
        JsonNode unknown = json("{\"shell.exec\": true}");
        JsonNode notBoolean = json("{\"kb.write\": \"yes\"}");
        JsonNode array = json("[\"kb.write\"]");
        for (JsonNode bad : new JsonNode[] {unknown, notBoolean, array}) {
            assertThat(code(() -> checks.check(write(null, null, bad, null, null)))).as(bad.toString())
                    .isEqualTo("invalid_toolset:toolset");
        }
    }

    @Test
    void anOutputSchemaIsAValidJsonSchemaOrNullToClear() throws Exception {
        JsonNode schema = json("{\"type\": \"object\", \"required\": [\"verdict\"]}");
        assertThat(checks.check(write(null, null, null, schema, null)).outputSchema()).contains(Optional.of(schema));
        assertThat(checks.check(write(null, null, null, json("null"), null)).outputSchema()).contains(Optional.empty());
        assertThat(checks.check(write(null, null, null, null, null)).outputSchema()).isEmpty();
        JsonNode invalid = json("{\"type\": 12}");
        assertThat(code(() -> checks.check(write(null, null, null, invalid, null))))
                .isEqualTo("invalid_output_schema:output_schema");
        JsonNode text = json("\"text\"");
        assertThatThrownBy(() -> checks.check(write(null, null, null, text, null)))
                .isInstanceOf(DomainException.class).hasMessageContaining("must be a JSON Schema object");
    }
}
