package dev.backplane.kernel.conventions;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the conventions capability raises (a bad slug is the shared {@code invalid_slug}). */
public enum ConventionErrors implements ErrorCode {
    CONVENTION_EXISTS(ErrorKind.CONFLICT),
    CONVENTION_NOT_FOUND(ErrorKind.NOT_FOUND),
    INVALID_CONVENTION(ErrorKind.INVALID),
    VERSION_CONFLICT(ErrorKind.CONFLICT);

    private final ErrorKind kind;

    ConventionErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
