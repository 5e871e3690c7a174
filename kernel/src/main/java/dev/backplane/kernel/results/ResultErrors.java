package dev.backplane.kernel.results;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the results capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum ResultErrors implements ErrorCode {
    HANDLE_NOT_FOUND("handle_not_found", ErrorKind.NOT_FOUND),
    QUERY_TOO_EXPENSIVE("query_too_expensive", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    ResultErrors(String code, ErrorKind kind) {
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
