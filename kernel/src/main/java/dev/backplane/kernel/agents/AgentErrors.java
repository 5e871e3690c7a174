package dev.backplane.kernel.agents;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the agents capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum AgentErrors implements ErrorCode {
    AGENT_NOT_FOUND("agent_not_found", ErrorKind.NOT_FOUND),
    AGENT_EXISTS("agent_exists", ErrorKind.CONFLICT),
    INVALID_AGENT("invalid_agent", ErrorKind.INVALID),
    INVALID_TOOLSET("invalid_toolset", ErrorKind.INVALID),
    INVALID_OUTPUT_SCHEMA("invalid_output_schema", ErrorKind.INVALID),
    UNKNOWN_IDENTITY("unknown_identity", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    AgentErrors(String code, ErrorKind kind) {
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
