package dev.backplane.kernel.docs;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the docs capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum DocsErrors implements ErrorCode {
    BACKEND_CREDENTIAL_UNAVAILABLE(ErrorKind.UPSTREAM_FAILED),
    BACKEND_ERROR(ErrorKind.UPSTREAM_FAILED),
    BACKEND_NOT_CONFIGURED(ErrorKind.CONFLICT),
    BACKEND_UNREACHABLE(ErrorKind.UPSTREAM_FAILED),
    CAPABILITY_REQUIRED(ErrorKind.FORBIDDEN),
    COLLECTION_DISABLED(ErrorKind.CONFLICT),
    COLLECTION_ENABLED(ErrorKind.CONFLICT),
    COLLECTION_EXISTS(ErrorKind.CONFLICT),
    COLLECTION_NOT_FOUND(ErrorKind.NOT_FOUND),
    COLLECTION_NOT_GLOBAL(ErrorKind.CONFLICT),
    COLLECTION_NOT_TENANT_OWNED(ErrorKind.CONFLICT),
    COLLECTION_REQUIRED(ErrorKind.INVALID),
    INVALID_BACKEND_REF(ErrorKind.INVALID),
    INVALID_BACKEND_TYPE(ErrorKind.INVALID),
    INVALID_KEY(ErrorKind.INVALID),
    INVALID_PRODUCT(ErrorKind.INVALID),
    BACKEND_TYPE_NOT_SERVED(ErrorKind.CONFLICT) {
        @Override
        public String code() {
            return "unknown_backend_type";
        }
    },
    UNKNOWN_BACKEND_TYPE(ErrorKind.INVALID);

    private final ErrorKind kind;

    DocsErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
