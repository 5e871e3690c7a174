package dev.backplane.kernel.credentials;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the credentials capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum CredentialErrors implements ErrorCode {
    INVALID_SECRET(ErrorKind.INVALID),
    SECRET_REF_OUTSIDE_TENANT_SCOPE(ErrorKind.INVALID),
    SECRET_REF_REQUIRED(ErrorKind.INVALID);

    private final ErrorKind kind;

    CredentialErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
