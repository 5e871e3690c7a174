package dev.backplane.kernel.scheduler;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One thing that runs by itself in a tenant, as {@code svc automation list} shows it.
 *
 * @param kind what it is ({@code event-trigger}; later {@code sensor}, {@code scheduled-job})
 * @param id its id, as its own verbs take it
 * @param description what sets it off, in a line (an event trigger's filter)
 * @param status {@code active} or {@code paused}
 * @param runs what it runs ({@code agent:<definition>})
 * @param lastRunAt when it last fired, if ever
 * @param lastRunHandle the run that firing started, if it started one
 * @param lastRunStatus that run's status, if it is still on record
 */
public record Automation(String kind, String id, String description, String status, String runs,
                         Optional<Instant> lastRunAt, Optional<String> lastRunHandle, Optional<String> lastRunStatus) {
    public Automation {
        Objects.requireNonNull(kind, "kind is null");
        Objects.requireNonNull(id, "id is null");
        Objects.requireNonNull(status, "status is null");
        lastRunAt = lastRunAt == null ? Optional.empty() : lastRunAt;
        lastRunHandle = lastRunHandle == null ? Optional.empty() : lastRunHandle;
        lastRunStatus = lastRunStatus == null ? Optional.empty() : lastRunStatus;
    }

    /** Whether the run it last started failed (a sensor's last state is a reading, never a failure of its own). */
    public boolean failing() {
        return lastRunStatus.filter("failed"::equals).isPresent();
    }
}
