package dev.backplane.kernel.mcp;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the mcp capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum McpErrors implements ErrorCode {
    INSUFFICIENT_SCOPE("insufficient_scope", ErrorKind.FORBIDDEN),
    INVALID_PARAMS("invalid_params", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    McpErrors(String code, ErrorKind kind) {
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
