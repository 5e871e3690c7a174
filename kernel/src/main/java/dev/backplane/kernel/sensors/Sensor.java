package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A sensor as shown: what it runs (connector, operation, target, params), how it judges the result
 * (its assertion), when (cadence), as whom (its service principal and the grant made for it) and its
 * latest state ({@code unknown} until its first run).
 */
public record Sensor(UUID id, String name, String status, String cadenceKind,
                     @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Integer> intervalSeconds,
                     @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> cron,
                     @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> timeZone,
                     String connectorId, String opId, String target, UUID targetId, Map<String, Object> params,
                     JsonNode assertion, String principal, Optional<UUID> grantId, Instant nextRunAt, String lastState,
                     Optional<Instant> lastEvaluatedAt, String createdBy, Instant createdAt, Instant updatedAt) {
}
