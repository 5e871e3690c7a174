package dev.backplane.kernel.memory;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the memory capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum MemoryErrors implements ErrorCode {
    INVALID_EXPIRES_AT("invalid_expires_at", ErrorKind.INVALID),
    INVALID_PROMOTION("invalid_promotion", ErrorKind.INVALID),
    INVALID_SCOPE("invalid_scope", ErrorKind.INVALID),
    MEMORY_NOT_FOUND("memory_not_found", ErrorKind.NOT_FOUND),
    NOT_OWNER("not_owner", ErrorKind.FORBIDDEN),
    TARGET_NAME_REQUIRED("target_name_required", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    MemoryErrors(String code, ErrorKind kind) {
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
