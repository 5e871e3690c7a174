package dev.backplane.kernel.results;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the results capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum ResultErrors implements ErrorCode {
    HANDLE_NOT_FOUND(ErrorKind.NOT_FOUND),
    QUERY_TOO_EXPENSIVE(ErrorKind.INVALID);

    private final ErrorKind kind;

    ResultErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
