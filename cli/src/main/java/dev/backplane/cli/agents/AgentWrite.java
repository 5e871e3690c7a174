package dev.backplane.cli.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.RequestBody;

/** The body of POST /api/v1/agents and PATCH /api/v1/agents/{name}: only the fields given. */
@RequestBody
record AgentWrite(String name, Boolean enabled, String identityRef, String modelTier, String systemPrompt,
                  JsonNode toolset, JsonNode outputSchema, Integer turnBudget) {
}
