package dev.backplane.kernel.conventions;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the conventions capability raises (a bad slug is the shared {@code invalid_slug}). */
public enum ConventionErrors implements ErrorCode {
    CONVENTION_EXISTS("convention_exists", ErrorKind.CONFLICT),
    CONVENTION_NOT_FOUND("convention_not_found", ErrorKind.NOT_FOUND),
    INVALID_CONVENTION("invalid_convention", ErrorKind.INVALID),
    VERSION_CONFLICT("version_conflict", ErrorKind.CONFLICT);

    private final String code;
    private final ErrorKind kind;

    ConventionErrors(String code, ErrorKind kind) {
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
