package dev.backplane.kernel.quality;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the quality capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum QualityErrors implements ErrorCode {
    INVALID_BASELINE("invalid_baseline", ErrorKind.INVALID),
    INVALID_SURFACE("invalid_surface", ErrorKind.INVALID),
    INVALID_VIEW("invalid_view", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    QualityErrors(String code, ErrorKind kind) {
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
