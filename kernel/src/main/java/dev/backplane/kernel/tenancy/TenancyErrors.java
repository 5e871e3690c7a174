package dev.backplane.kernel.tenancy;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the tenancy capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum TenancyErrors implements ErrorCode {
    INVALID_POLICY(ErrorKind.INVALID);

    private final ErrorKind kind;

    TenancyErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
