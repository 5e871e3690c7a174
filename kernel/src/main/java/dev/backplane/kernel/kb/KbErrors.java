package dev.backplane.kernel.kb;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the kb capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum KbErrors implements ErrorCode {
    DIRECTORY_NOT_FOUND("directory_not_found", ErrorKind.INVALID),
    DIRECTORY_OUTSIDE_INGEST_ROOT("directory_outside_ingest_root", ErrorKind.INVALID),
    INGEST_ROOT_MISSING("ingest_root_missing", ErrorKind.INVALID),
    INVALID_DIRECTORY("invalid_directory", ErrorKind.INVALID),
    KB_ENTRY_NOT_FOUND("kb_entry_not_found", ErrorKind.NOT_FOUND),
    KB_INGEST_DISABLED("kb_ingest_disabled", ErrorKind.FORBIDDEN),
    TOO_MANY_FILES("too_many_files", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    KbErrors(String code, ErrorKind kind) {
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
