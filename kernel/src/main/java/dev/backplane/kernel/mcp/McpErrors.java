package dev.backplane.kernel.mcp;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the mcp capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum McpErrors implements ErrorCode {
    INSUFFICIENT_SCOPE(ErrorKind.FORBIDDEN),
    INVALID_PARAMS(ErrorKind.INVALID);

    private final ErrorKind kind;

    McpErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
