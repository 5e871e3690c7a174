package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An agent definition (SPEC "Agent records"): what a run executes and as whom. {@code identityRef}
 * names the agent principal the run acts as — its grants and kill switch bound every call the run
 * makes; {@code tools} is what {@code toolset} gives the run (see {@link Toolsets}).
 */
public record AgentDefinition(String name, boolean enabled, String identityRef, String modelTier, String systemPrompt,
                              Map<String, Boolean> toolset, List<String> tools, Optional<JsonNode> outputSchema,
                              int turnBudget, String createdBy, Instant createdAt, Instant updatedAt) {
}
