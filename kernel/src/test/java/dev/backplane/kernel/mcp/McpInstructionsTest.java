package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.util.JsonMapping;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What initialize and server/discover say: versions, capabilities, and instructions composed in order. */
class McpInstructionsTest {

    private static final JsonNode INDEX = JsonMapping.mapper().valueToTree(Map.of("features", List.of(
            Map.of("key", "memory", "maturity", "GA", "spec_labelled", true),
            Map.of("key", "console", "maturity", "GA", "spec_labelled", false),
            Map.of("key", "kb", "maturity", "GA", "spec_labelled", true),
            Map.of("key", "docs", "maturity", "experimental", "spec_labelled", true),
            Map.of("key", "scheduler", "maturity", "Beta", "spec_labelled", true))));

    private final UUID withConventions = UUID.randomUUID();
    private final McpInstructions instructions = new McpInstructions("1.2.3",
            tenant -> tenant.equals(withConventions) ? "Conventions: deploy on Tuesdays." : "", INDEX);

    @Test
    void maturityListsTheLabelledFeaturesByLabelInIndexOrder() {
        assertThat(McpInstructions.maturity(INDEX)).isEqualTo("Feature maturity: memory, kb are GA; docs is "
                + "experimental; scheduler is Beta. The whole index (every capability, and the boundaries that may "
                + "move) is the resource svc://features.");
    }

    @Test
    void instructionsAreTheGuideThenTheRulesThenTheTenantsConventions() {
        String rules = McpInstructions.INSTRUCTIONS + "\n\n" + McpInstructions.SEARCH_BEFORE_WRITE + "\n\n"
                + McpInstructions.maturity(INDEX);
        assertThat(instructions.instructions(UUID.randomUUID())).isEqualTo(rules);
        assertThat(instructions.instructions(withConventions))
                .isEqualTo(rules + "\n\nConventions: deploy on Tuesdays.");
    }

    @Test
    void initializeSettlesOnTheAskedHandshakeVersionElseTheNewest() {
        for (String asked : List.of(McpServer.V2025_06_18, McpServer.V2025_11_25)) {
            assertThat(initialize(asked).path("protocolVersion").asText()).isEqualTo(asked);
        }
        for (String asked : List.of("2025-03-26", McpServer.V2026_07_28, "")) {
            assertThat(initialize(asked).path("protocolVersion").asText()).as(asked).isEqualTo(McpServer.V2025_11_25);
        }
        ObjectNode r = initialize(McpServer.V2025_06_18);
        assertThat(r.path("serverInfo").path("version").asText()).isEqualTo("1.2.3");
        assertThat(r.path("serverInfo").path("name").asText()).isEqualTo("svc-backplane");
        assertThat(r.path("capabilities").path("tools").path("listChanged").asBoolean(true)).isFalse();
        assertThat(r.path("capabilities").has("prompts")).isFalse();
        assertThat(r.path("instructions").asText()).isEqualTo(instructions.instructions(withConventions));
    }

    @Test
    void discoverListsEveryVersionNewestFirstAndNoServerInfo() {
        ObjectNode r = instructions.discover(withConventions);
        assertThat(r.path("supportedVersions").toString()).isEqualTo("[\"2026-07-28\",\"2025-11-25\",\"2025-06-18\"]");
        assertThat(r.has("serverInfo")).as("the identity travels in _meta").isFalse();
        assertThat(r.path("capabilities")).isEqualTo(McpInstructions.capabilities());
        assertThat(r.path("instructions").asText()).endsWith("Conventions: deploy on Tuesdays.");
    }

    private ObjectNode initialize(String asked) {
        return instructions.initialize(withConventions,
                JsonMapping.mapper().valueToTree(Map.of("protocolVersion", asked)));
    }
}
