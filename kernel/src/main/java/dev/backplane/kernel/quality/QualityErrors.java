package dev.backplane.kernel.quality;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the quality capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum QualityErrors implements ErrorCode {
    INVALID_BASELINE(ErrorKind.INVALID),
    INVALID_SURFACE(ErrorKind.INVALID),
    INVALID_VIEW(ErrorKind.INVALID);

    private final ErrorKind kind;

    QualityErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
