package dev.backplane.cli.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.TextArgs;
import picocli.CommandLine.Option;

/** The options create and edit share, and how a definition prints. */
final class AgentFields {

    @Option(names = "--identity-ref", paramLabel = "<principal>",
            description = "the agent principal runs act as (svc agent-principal list); required on create")
    String identityRef;
    @Option(names = "--model-tier", paramLabel = "<tier>", description = "standard, fast or deep (default standard)")
    String modelTier;
    @Option(names = "--system-prompt", paramLabel = "<text|@file>", description = "the system prompt (@path reads a file)")
    String systemPrompt;
    @Option(names = "--toolset", paramLabel = "<json|@file>",
            description = "JSON object of tool name to true/false; {} (the default) is the read-only set")
    String toolset;
    @Option(names = "--output-schema", paramLabel = "<json|@file|null>",
            description = "JSON Schema (2020-12) the final output must match; null clears it")
    String outputSchema;
    @Option(names = "--turn-budget", paramLabel = "1..1000", description = "default 20") Integer turnBudget;

    AgentWrite body(String name, Boolean enabled) {
        return new AgentWrite(name, enabled, identityRef, modelTier, TextArgs.read(systemPrompt, "--system-prompt"),
                TextArgs.jsonObject(toolset, "--toolset"), "null".equals(outputSchema) ? NullNode.getInstance()
                : TextArgs.jsonObject(outputSchema, "--output-schema"), turnBudget);
    }

    static void print(CliContext ctx, JsonNode a) {
        ctx.out().println(a.path("name").asText() + "  " + (a.path("enabled").asBoolean() ? "enabled" : "DISABLED")
                + "  as " + a.path("identity_ref").asText() + "  tier " + a.path("model_tier").asText()
                + "  turn budget " + a.path("turn_budget").asInt());
        ctx.out().println("  tools: " + String.join(", ", Http.JSON.convertValue(a.path("tools"), String[].class)));
        if (!a.path("system_prompt").asText().isEmpty()) {
            ctx.out().println("  system prompt: " + a.path("system_prompt").asText().lines().findFirst().orElse("")
                    + (a.path("system_prompt").asText().lines().count() > 1 ? " ..." : ""));
        }
        if (!a.path("output_schema").isNull() && !a.path("output_schema").isMissingNode()) {
            ctx.out().println("  output schema: " + a.path("output_schema"));
        }
    }
}
