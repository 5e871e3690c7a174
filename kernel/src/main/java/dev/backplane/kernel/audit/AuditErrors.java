package dev.backplane.kernel.audit;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the audit capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum AuditErrors implements ErrorCode {
    AUDIT_ROW_NOT_FOUND("audit_row_not_found", ErrorKind.NOT_FOUND),
    AUDIT_UNAVAILABLE("audit_unavailable", ErrorKind.UNAVAILABLE),
    INVALID_FILTER("invalid_filter", ErrorKind.INVALID),
    INVALID_SESSION("invalid_session", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    AuditErrors(String code, ErrorKind kind) {
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
