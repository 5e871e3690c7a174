package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes of the broadcast feed. */
public enum BroadcastErrors implements ErrorCode {
    INVALID_ANNOUNCEMENT("invalid_announcement", ErrorKind.INVALID),
    INVALID_FILTER("invalid_filter", ErrorKind.INVALID),
    INVALID_OP_ID_PATTERN("invalid_op_id_pattern", ErrorKind.INVALID),
    INVALID_OVERRIDE("invalid_override", ErrorKind.INVALID),
    OVERRIDE_NOT_FOUND("override_not_found", ErrorKind.NOT_FOUND),
    TOO_MANY_STREAMS("too_many_streams", ErrorKind.RATE_LIMITED);

    private final String code;
    private final ErrorKind kind;

    BroadcastErrors(String code, ErrorKind kind) {
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
