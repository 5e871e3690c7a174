package dev.backplane.kernel.agents;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the agents capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum AgentErrors implements ErrorCode {
    AGENT_NOT_FOUND(ErrorKind.NOT_FOUND),
    AGENT_EXISTS(ErrorKind.CONFLICT),
    INVALID_AGENT(ErrorKind.INVALID),
    INVALID_TOOLSET(ErrorKind.INVALID),
    INVALID_OUTPUT_SCHEMA(ErrorKind.INVALID),
    UNKNOWN_IDENTITY(ErrorKind.INVALID);

    private final ErrorKind kind;

    AgentErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
