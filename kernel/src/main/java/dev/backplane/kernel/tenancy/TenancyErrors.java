package dev.backplane.kernel.tenancy;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the tenancy capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum TenancyErrors implements ErrorCode {
    INVALID_POLICY("invalid_policy", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    TenancyErrors(String code, ErrorKind kind) {
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
