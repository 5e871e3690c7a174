package dev.backplane.kernel.errors;

/**
 * Error codes that more than one capability raises, and those of the http layer: malformed bodies,
 * bad paging and query arguments, roles, tenants, and a few domain codes two capabilities share
 * (SPEC's codes; the kind decides the HTTP status). A code only one capability raises lives in that
 * capability's enum ({@code TargetErrors}, {@code EventErrors}, ...).
 */
public enum CommonErrors implements ErrorCode {
    BODY_TOO_LARGE("body_too_large", ErrorKind.TOO_LARGE),
    GRANT_NOT_FOUND("grant_not_found", ErrorKind.NOT_FOUND),
    INSUFFICIENT_ROLE("insufficient_role", ErrorKind.FORBIDDEN),
    INTERNAL_ERROR("internal_error", ErrorKind.INTERNAL),
    INVALID_BODY("invalid_body", ErrorKind.INVALID),
    INVALID_CURSOR("invalid_cursor", ErrorKind.INVALID),
    INVALID_JSON("invalid_json", ErrorKind.BAD_REQUEST),
    INVALID_LIMIT("invalid_limit", ErrorKind.INVALID),
    INVALID_OFFSET("invalid_offset", ErrorKind.INVALID),
    INVALID_QUERY("invalid_query", ErrorKind.INVALID),
    UNREADABLE_REQUEST("invalid_request", ErrorKind.BAD_REQUEST),
    INVALID_REQUEST("invalid_request", ErrorKind.INVALID),
    INVALID_SECRET_REF("invalid_secret_ref", ErrorKind.INVALID),
    INVALID_SLUG("invalid_slug", ErrorKind.INVALID),
    INVALID_STATUS("invalid_status", ErrorKind.INVALID),
    INVALID_TENANT_HEADER("invalid_tenant", ErrorKind.BAD_REQUEST),
    INVALID_TENANT("invalid_tenant", ErrorKind.INVALID),
    INVALID_TEXT("invalid_text", ErrorKind.INVALID),
    INVALID_TIME("invalid_time", ErrorKind.INVALID),
    NOT_FOUND("not_found", ErrorKind.NOT_FOUND),
    PRINCIPAL_REVOKED("principal_revoked", ErrorKind.FORBIDDEN),
    SSRF_REFUSED("ssrf_refused", ErrorKind.INVALID),
    TENANT_NOT_FOUND("tenant_not_found", ErrorKind.NOT_FOUND),
    TENANT_REQUIRED("tenant_required", ErrorKind.BAD_REQUEST);

    private final String code;
    private final ErrorKind kind;

    CommonErrors(String code, ErrorKind kind) {
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
