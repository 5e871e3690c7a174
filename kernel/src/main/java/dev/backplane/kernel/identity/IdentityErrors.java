package dev.backplane.kernel.identity;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the identity capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum IdentityErrors implements ErrorCode {
    HUMAN_REQUIRED(ErrorKind.FORBIDDEN);

    private final ErrorKind kind;

    IdentityErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
