package dev.backplane.kernel.credentials;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the credentials capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum CredentialErrors implements ErrorCode {
    INVALID_SECRET("invalid_secret", ErrorKind.INVALID),
    SECRET_REF_OUTSIDE_TENANT_SCOPE("secret_ref_outside_tenant_scope", ErrorKind.INVALID),
    SECRET_REF_REQUIRED("secret_ref_required", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    CredentialErrors(String code, ErrorKind kind) {
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
