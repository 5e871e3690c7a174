package dev.backplane.kernel.targets;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the targets capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum TargetErrors implements ErrorCode {
    AMBIGUOUS_CONNECTOR(ErrorKind.CONFLICT),
    DISCOVER_NOT_SUPPORTED(ErrorKind.NOT_IMPLEMENTED),
    FINGERPRINT_IS_SERVER_MANAGED(ErrorKind.INVALID),
    INVALID_IMPORT(ErrorKind.INVALID),
    INVALID_TARGET(ErrorKind.INVALID),
    INVALID_TLS_CA_PIN(ErrorKind.INVALID),
    MISSING_FIELD(ErrorKind.INVALID),
    NO_CONNECTOR(ErrorKind.NOT_IMPLEMENTED),
    SEED_TARGET_MISMATCH(ErrorKind.INVALID),
    SEED_TARGET_REQUIRED(ErrorKind.INVALID),
    TARGET_EXISTS(ErrorKind.CONFLICT),
    TARGET_NOT_FOUND(ErrorKind.NOT_FOUND),
    TLS_OPTIONS_CONFLICT(ErrorKind.INVALID),
    UNKNOWN_IMPL(ErrorKind.INVALID),
    UNKNOWN_PRODUCT(ErrorKind.INVALID);

    private final ErrorKind kind;

    TargetErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
