package dev.backplane.kernel.errors;

/**
 * Error codes that more than one capability raises, and those of the http layer: malformed bodies,
 * bad paging and query arguments, roles, tenants, and a few domain codes two capabilities share
 * (SPEC's codes; the kind decides the HTTP status). A code only one capability raises lives in that
 * capability's enum ({@code TargetErrors}, {@code EventErrors}, ...).
 */
public enum CommonErrors implements ErrorCode {
    BODY_TOO_LARGE(ErrorKind.TOO_LARGE),
    DATABASE_BUSY(ErrorKind.UNAVAILABLE),
    GRANT_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** A client (the CLI) of another REST API major: {@link dev.backplane.kernel.http.ApiLevel}. */
    INCOMPATIBLE_CLIENT(ErrorKind.BAD_REQUEST),
    INSUFFICIENT_ROLE(ErrorKind.FORBIDDEN),
    INTERNAL_ERROR(ErrorKind.INTERNAL),
    INVALID_BODY(ErrorKind.INVALID),
    INVALID_CURSOR(ErrorKind.INVALID),
    INVALID_JSON(ErrorKind.BAD_REQUEST),
    INVALID_LIMIT(ErrorKind.INVALID),
    INVALID_OFFSET(ErrorKind.INVALID),
    INVALID_QUERY(ErrorKind.INVALID),
    UNREADABLE_REQUEST(ErrorKind.BAD_REQUEST) {
        @Override
        public String code() {
            return "invalid_request";
        }
    },
    INVALID_REQUEST(ErrorKind.INVALID),
    INVALID_SECRET_REF(ErrorKind.INVALID),
    INVALID_SLUG(ErrorKind.INVALID),
    INVALID_STATUS(ErrorKind.INVALID),
    INVALID_TENANT_HEADER(ErrorKind.BAD_REQUEST) {
        @Override
        public String code() {
            return "invalid_tenant";
        }
    },
    INVALID_TENANT(ErrorKind.INVALID),
    INVALID_TEXT(ErrorKind.INVALID),
    INVALID_TIME(ErrorKind.INVALID),
    NOT_FOUND(ErrorKind.NOT_FOUND),
    PRINCIPAL_REVOKED(ErrorKind.FORBIDDEN),
    SSRF_REFUSED(ErrorKind.INVALID),
    TENANT_NOT_FOUND(ErrorKind.NOT_FOUND),
    TENANT_REQUIRED(ErrorKind.BAD_REQUEST);

    private final ErrorKind kind;

    CommonErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
