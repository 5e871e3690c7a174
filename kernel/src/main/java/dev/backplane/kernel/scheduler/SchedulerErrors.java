package dev.backplane.kernel.scheduler;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the scheduler raises (SPEC's codes; the kind decides the HTTP status). */
public enum SchedulerErrors implements ErrorCode {
    TRIGGER_NOT_FOUND("trigger_not_found", ErrorKind.NOT_FOUND),
    INVALID_TRIGGER("invalid_trigger", ErrorKind.INVALID),
    UNSUPPORTED_TRIGGER_KIND("unsupported_trigger_kind", ErrorKind.INVALID),
    UNKNOWN_AGENT("unknown_agent", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    SchedulerErrors(String code, ErrorKind kind) {
        this.code = code;
        this.kind = kind;
    }

    @Override
    public String code() {
        return code;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
