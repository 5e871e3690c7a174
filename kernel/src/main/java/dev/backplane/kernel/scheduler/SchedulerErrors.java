package dev.backplane.kernel.scheduler;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the scheduler raises (SPEC's codes; the kind decides the HTTP status). */
public enum SchedulerErrors implements ErrorCode {
    TRIGGER_NOT_FOUND(ErrorKind.NOT_FOUND),
    INVALID_TRIGGER(ErrorKind.INVALID),
    UNSUPPORTED_TRIGGER_KIND(ErrorKind.INVALID),
    UNKNOWN_AGENT(ErrorKind.INVALID);

    private final ErrorKind kind;

    SchedulerErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
