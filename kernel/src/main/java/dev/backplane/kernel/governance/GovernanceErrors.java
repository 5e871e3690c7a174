package dev.backplane.kernel.governance;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the governance capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum GovernanceErrors implements ErrorCode {
    APPROVAL_NOT_FOUND(ErrorKind.NOT_FOUND),
    APPROVAL_NOT_PENDING(ErrorKind.CONFLICT),
    FOUR_EYES(ErrorKind.FORBIDDEN),
    INVALID_GRANT(ErrorKind.INVALID),
    INVALID_NAME(ErrorKind.INVALID),
    PRINCIPAL_EXISTS(ErrorKind.CONFLICT),
    PRINCIPAL_NOT_FOUND(ErrorKind.NOT_FOUND),
    REASON_REQUIRED(ErrorKind.INVALID);

    private final ErrorKind kind;

    GovernanceErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
