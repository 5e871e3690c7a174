package dev.backplane.kernel.identity;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the identity capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum IdentityErrors implements ErrorCode {
    HUMAN_REQUIRED("human_required", ErrorKind.FORBIDDEN);

    private final String code;
    private final ErrorKind kind;

    IdentityErrors(String code, ErrorKind kind) {
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
