package dev.backplane.kernel.docs;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the docs capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum DocsErrors implements ErrorCode {
    BACKEND_CREDENTIAL_UNAVAILABLE("backend_credential_unavailable", ErrorKind.UPSTREAM_FAILED),
    BACKEND_ERROR("backend_error", ErrorKind.UPSTREAM_FAILED),
    BACKEND_NOT_CONFIGURED("backend_not_configured", ErrorKind.CONFLICT),
    BACKEND_UNREACHABLE("backend_unreachable", ErrorKind.UPSTREAM_FAILED),
    CAPABILITY_REQUIRED("capability_required", ErrorKind.FORBIDDEN),
    COLLECTION_DISABLED("collection_disabled", ErrorKind.CONFLICT),
    COLLECTION_ENABLED("collection_enabled", ErrorKind.CONFLICT),
    COLLECTION_EXISTS("collection_exists", ErrorKind.CONFLICT),
    COLLECTION_NOT_FOUND("collection_not_found", ErrorKind.NOT_FOUND),
    COLLECTION_NOT_GLOBAL("collection_not_global", ErrorKind.CONFLICT),
    COLLECTION_NOT_TENANT_OWNED("collection_not_tenant_owned", ErrorKind.CONFLICT),
    COLLECTION_REQUIRED("collection_required", ErrorKind.INVALID),
    INVALID_BACKEND_REF("invalid_backend_ref", ErrorKind.INVALID),
    INVALID_BACKEND_TYPE("invalid_backend_type", ErrorKind.INVALID),
    INVALID_KEY("invalid_key", ErrorKind.INVALID),
    INVALID_PRODUCT("invalid_product", ErrorKind.INVALID),
    BACKEND_TYPE_NOT_SERVED("unknown_backend_type", ErrorKind.CONFLICT),
    UNKNOWN_BACKEND_TYPE("unknown_backend_type", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    DocsErrors(String code, ErrorKind kind) {
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
