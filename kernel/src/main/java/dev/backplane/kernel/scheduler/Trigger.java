package dev.backplane.kernel.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** A scheduler trigger as shown: kind {@code event}, the agent it runs, the filter, the prompt, the state. */
public record Trigger(UUID id, String kind, String agentDefinition, JsonNode eventFilter, Optional<String> inputs,
                      String status, String createdBy, Instant createdAt, Instant updatedAt) {
}
