package dev.backplane.kernel.agents;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes of agent runs (SPEC's codes; the kind decides the HTTP status). */
public enum AgentRunErrors implements ErrorCode {
    RUN_NOT_FOUND("run_not_found", ErrorKind.NOT_FOUND),
    AGENT_DISABLED("agent_disabled", ErrorKind.CONFLICT),
    RUN_FINISHED("run_finished", ErrorKind.CONFLICT),
    INVALID_RUN("invalid_run", ErrorKind.INVALID),
    MODEL_NOT_CONFIGURED("model_not_configured", ErrorKind.UNAVAILABLE),
    MODEL_KEY_UNAVAILABLE("model_key_unavailable", ErrorKind.UNAVAILABLE);

    private final String code;
    private final ErrorKind kind;

    AgentRunErrors(String code, ErrorKind kind) {
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
