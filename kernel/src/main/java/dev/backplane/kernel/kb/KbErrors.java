package dev.backplane.kernel.kb;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the kb capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum KbErrors implements ErrorCode {
    DIRECTORY_NOT_FOUND(ErrorKind.INVALID),
    DIRECTORY_OUTSIDE_INGEST_ROOT(ErrorKind.INVALID),
    INGEST_ROOT_MISSING(ErrorKind.INVALID),
    INVALID_DIRECTORY(ErrorKind.INVALID),
    KB_ENTRY_NOT_FOUND(ErrorKind.NOT_FOUND),
    KB_INGEST_DISABLED(ErrorKind.FORBIDDEN),
    TOO_MANY_FILES(ErrorKind.INVALID);

    private final ErrorKind kind;

    KbErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
