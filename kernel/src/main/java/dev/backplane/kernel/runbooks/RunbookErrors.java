package dev.backplane.kernel.runbooks;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes of runbook templates and runs. */
public enum RunbookErrors implements ErrorCode {
    INVALID_RUNBOOK("invalid_runbook", ErrorKind.INVALID),
    INVALID_RUN("invalid_run", ErrorKind.INVALID),
    RUN_FINISHED("run_finished", ErrorKind.CONFLICT),
    RUN_NOT_FOUND("run_not_found", ErrorKind.NOT_FOUND),
    STEP_NOT_RUN("step_not_run", ErrorKind.CONFLICT),
    STEP_IN_FLIGHT("step_in_flight", ErrorKind.CONFLICT),
    STEP_CHANGED("step_changed", ErrorKind.CONFLICT),
    SAME_PERSON("four_eyes", ErrorKind.FORBIDDEN),
    APPROVAL_PENDING("approval_pending", ErrorKind.CONFLICT),
    NOT_ASSIGNEE("not_assignee", ErrorKind.FORBIDDEN),
    TEMPLATE_EXISTS("template_exists", ErrorKind.CONFLICT),
    TEMPLATE_NOT_FOUND("template_not_found", ErrorKind.NOT_FOUND),
    TEMPLATE_STATE("template_state", ErrorKind.CONFLICT),
    TARGET_KIND_MISMATCH("target_kind_mismatch", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    RunbookErrors(String code, ErrorKind kind) {
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
