package dev.backplane.kernel.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * A scheduler trigger as shown: kind {@code event} (the filter an event must contain) or {@code cron}
 * (a schedule, its time zone and when it fires next), the agent it runs, the prompt, the state.
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
public record Trigger(UUID id, String kind, String agentDefinition, JsonNode eventFilter, Optional<String> inputs,
                      String status, String createdBy, Instant createdAt, Instant updatedAt, Optional<String> cron,
                      Optional<String> timeZone, Optional<Instant> nextFireAt) {
}
