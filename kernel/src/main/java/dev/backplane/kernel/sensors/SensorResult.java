package dev.backplane.kernel.sensors;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * One evaluation of a sensor: when it was due and when it was evaluated (their gap, less the call's
 * duration, is how late the scheduler started it), the state, why (the rule that matched or the call's failure, never
 * params, results or secrets), the call's status and the audit row of its dispatch.
 */
public record SensorResult(long id, UUID sensorId, Instant dueAt, Instant evaluatedAt, String state, String detail, String callStatus,
                           Optional<UUID> auditId, int durationMs) {
}
