package dev.backplane.kernel.memory;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the memory capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum MemoryErrors implements ErrorCode {
    INVALID_EXPIRES_AT(ErrorKind.INVALID),
    INVALID_PROMOTION(ErrorKind.INVALID),
    INVALID_SCOPE(ErrorKind.INVALID),
    MEMORY_NOT_FOUND(ErrorKind.NOT_FOUND),
    NOT_OWNER(ErrorKind.FORBIDDEN),
    TARGET_NAME_REQUIRED(ErrorKind.INVALID);

    private final ErrorKind kind;

    MemoryErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
