package dev.backplane.kernel.governance;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the governance capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum GovernanceErrors implements ErrorCode {
    APPROVAL_NOT_FOUND("approval_not_found", ErrorKind.NOT_FOUND),
    APPROVAL_NOT_PENDING("approval_not_pending", ErrorKind.CONFLICT),
    FOUR_EYES("four_eyes", ErrorKind.FORBIDDEN),
    INVALID_GRANT("invalid_grant", ErrorKind.INVALID),
    INVALID_NAME("invalid_name", ErrorKind.INVALID),
    PRINCIPAL_EXISTS("principal_exists", ErrorKind.CONFLICT),
    PRINCIPAL_NOT_FOUND("principal_not_found", ErrorKind.NOT_FOUND),
    REASON_REQUIRED("reason_required", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    GovernanceErrors(String code, ErrorKind kind) {
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
