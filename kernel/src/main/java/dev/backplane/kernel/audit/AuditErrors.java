package dev.backplane.kernel.audit;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the audit capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum AuditErrors implements ErrorCode {
    AUDIT_ROW_NOT_FOUND(ErrorKind.NOT_FOUND),
    AUDIT_UNAVAILABLE(ErrorKind.UNAVAILABLE),
    INVALID_FILTER(ErrorKind.INVALID),
    INVALID_SESSION(ErrorKind.INVALID),
    INVALID_RETENTION(ErrorKind.INVALID),
    ARCHIVE_NOT_FOUND(ErrorKind.NOT_FOUND),
    ARCHIVE_NOT_CONFIGURED(ErrorKind.CONFLICT),
    ARCHIVE_UNREADABLE(ErrorKind.UNAVAILABLE);

    private final ErrorKind kind;

    AuditErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
