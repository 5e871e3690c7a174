package dev.backplane.kernel.runbooks;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes of runbook templates and runs. */
public enum RunbookErrors implements ErrorCode {
    INVALID_RUNBOOK(ErrorKind.INVALID),
    INVALID_RUN(ErrorKind.INVALID),
    RUN_FINISHED(ErrorKind.CONFLICT),
    RUN_NOT_FOUND(ErrorKind.NOT_FOUND),
    STEP_NOT_RUN(ErrorKind.CONFLICT),
    STEP_IN_FLIGHT(ErrorKind.CONFLICT),
    STEP_CHANGED(ErrorKind.CONFLICT),
    SAME_PERSON(ErrorKind.FORBIDDEN) {
        @Override
        public String code() {
            return "four_eyes";
        }
    },
    APPROVAL_PENDING(ErrorKind.CONFLICT),
    NOT_ASSIGNEE(ErrorKind.FORBIDDEN),
    TEMPLATE_EXISTS(ErrorKind.CONFLICT),
    TEMPLATE_NOT_FOUND(ErrorKind.NOT_FOUND),
    TEMPLATE_STATE(ErrorKind.CONFLICT),
    TARGET_KIND_MISMATCH(ErrorKind.INVALID);

    private final ErrorKind kind;

    RunbookErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
