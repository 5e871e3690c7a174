package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes of the broadcast feed. */
public enum BroadcastErrors implements ErrorCode {
    INVALID_ANNOUNCEMENT(ErrorKind.INVALID),
    INVALID_FILTER(ErrorKind.INVALID),
    INVALID_OP_ID_PATTERN(ErrorKind.INVALID),
    INVALID_OVERRIDE(ErrorKind.INVALID),
    OVERRIDE_NOT_FOUND(ErrorKind.NOT_FOUND),
    TOO_MANY_STREAMS(ErrorKind.RATE_LIMITED);

    private final ErrorKind kind;

    BroadcastErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
