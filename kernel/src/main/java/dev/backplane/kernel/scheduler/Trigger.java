package dev.backplane.kernel.scheduler;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * A scheduler trigger as shown: kind {@code event} (the filter an event must contain) or {@code cron}
 * (a schedule, its time zone and when it fires next), the agent it runs, the prompt, the state.
 */
public record Trigger(UUID id, String kind, String agentDefinition, JsonNode eventFilter, Optional<String> inputs,
                      String status, String createdBy, Instant createdAt, Instant updatedAt,
                      @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> cron,
                      @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> timeZone,
                      @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Instant> nextFireAt) {
}
