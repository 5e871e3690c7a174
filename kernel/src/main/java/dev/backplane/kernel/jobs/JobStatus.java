package dev.backplane.kernel.jobs;

import java.util.Arrays;

/**
 * A background job's status, with its wire name (what {@code background_jobs.status} holds and pollers see)
 * and the moves it may make: a queued job starts running (or fails); a running job succeeds or fails; a
 * succeeded or failed job is terminal. The reaper fails the unfinished ones nobody updates.
 */
public enum JobStatus {
    QUEUED("queued"),
    RUNNING("running"),
    SUCCEEDED("succeeded"),
    FAILED("failed");

    private final String wire;

    JobStatus(String wire) {
        this.wire = wire;
    }

    /** What the {@code status} column holds and a poll shows. */
    public String wire() {
        return wire;
    }

    /** Succeeded or failed: polling it again changes nothing. */
    public boolean terminal() {
        return this == SUCCEEDED || this == FAILED;
    }

    /** Whether a job in this status may move to {@code next}. */
    public boolean canMoveTo(JobStatus next) {
        return switch (this) {
            case QUEUED -> next == RUNNING || next == FAILED;
            case RUNNING -> next == SUCCEEDED || next == FAILED;
            case SUCCEEDED, FAILED -> false;
        };
    }

    /** {@code next} if this status may move there; otherwise an {@link IllegalStateException} (a runner's bug). */
    JobStatus moveTo(JobStatus next) {
        if (!canMoveTo(next)) {
            throw new IllegalStateException("a " + wire + " job cannot become " + next.wire);
        }
        return next;
    }

    /** A new job's status: {@code queued} until its runner picks it up if its kind says so, else {@code running}. */
    static JobStatus initial(JobKind kind) {
        return kind.queuedFirst() ? QUEUED : RUNNING;
    }

    /** The status a column value names. */
    static JobStatus ofWire(String wire) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown background job status '" + wire + "'"));
    }
}
