package dev.backplane.kernel.dispatch;

import java.util.Locale;

/**
 * The states of an asynchronous run ({@code dispatch_runs.status}) by wire name, and the moves between them: a run
 * is {@code running} until its call finishes it ({@link #finishedAs}), run-cancel cancels it unless it is terminal,
 * and the reaper fails a {@code pending} or {@code running} one whose lease lapsed.
 */
enum RunStatus {
    PENDING,
    RUNNING,
    AWAITING_APPROVAL,
    SUCCEEDED,
    FAILED,
    CANCELLED;

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status stored as {@code wire} (the table's check constraint admits no other). */
    static RunStatus of(String wire) {
        for (RunStatus s : values()) {
            if (s.wireName().equals(wire)) {
                return s;
            }
        }
        throw new IllegalArgumentException("not a run status: " + wire);
    }

    /** States a run leaves no more: run-cancel answers 409 for them. */
    boolean terminal() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }

    /** Held under a lease by the kernel running it: the reaper fails it when the lease lapses. */
    boolean leased() {
        return this == PENDING || this == RUNNING;
    }

    boolean canMoveTo(RunStatus next) {
        return switch (this) {
            case PENDING -> next == RUNNING || next == FAILED || next == CANCELLED;
            case RUNNING -> next == SUCCEEDED || next == FAILED || next == AWAITING_APPROVAL || next == CANCELLED;
            case AWAITING_APPROVAL -> next == CANCELLED;
            case SUCCEEDED, FAILED, CANCELLED -> false;
        };
    }

    /** What a running run becomes when its call answers with an envelope of {@code envelopeStatus}. */
    static RunStatus finishedAs(String envelopeStatus) {
        return switch (envelopeStatus) {
            case ResultEnvelope.OK -> SUCCEEDED;
            case ResultEnvelope.AWAITING_APPROVAL -> AWAITING_APPROVAL;
            default -> FAILED;
        };
    }
}
