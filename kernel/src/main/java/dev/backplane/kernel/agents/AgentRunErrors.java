package dev.backplane.kernel.agents;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes of agent runs (SPEC's codes; the kind decides the HTTP status). */
public enum AgentRunErrors implements ErrorCode {
    RUN_NOT_FOUND(ErrorKind.NOT_FOUND),
    AGENT_DISABLED(ErrorKind.CONFLICT),
    RUN_FINISHED(ErrorKind.CONFLICT),
    INVALID_RUN(ErrorKind.INVALID),
    MODEL_NOT_CONFIGURED(ErrorKind.UNAVAILABLE),
    MODEL_KEY_UNAVAILABLE(ErrorKind.UNAVAILABLE);

    private final ErrorKind kind;

    AgentRunErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
