package dev.backplane.kernel.tools;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error a tool's arguments raise (SPEC's code; MCP answers it as JSON-RPC -32602 with the field named). */
public enum ToolErrors implements ErrorCode {
    INVALID_PARAMS(ErrorKind.INVALID);

    private final ErrorKind kind;

    ToolErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
