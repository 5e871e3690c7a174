package dev.backplane.kernel.targets;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the targets capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum TargetErrors implements ErrorCode {
    AMBIGUOUS_CONNECTOR("ambiguous_connector", ErrorKind.CONFLICT),
    DISCOVER_NOT_SUPPORTED("discover_not_supported", ErrorKind.NOT_IMPLEMENTED),
    FINGERPRINT_IS_SERVER_MANAGED("fingerprint_is_server_managed", ErrorKind.INVALID),
    INVALID_IMPORT("invalid_import", ErrorKind.INVALID),
    INVALID_TARGET("invalid_target", ErrorKind.INVALID),
    INVALID_TLS_CA_PIN("invalid_tls_ca_pin", ErrorKind.INVALID),
    MISSING_FIELD("missing_field", ErrorKind.INVALID),
    NO_CONNECTOR("no_connector", ErrorKind.NOT_IMPLEMENTED),
    SEED_TARGET_MISMATCH("seed_target_mismatch", ErrorKind.INVALID),
    SEED_TARGET_REQUIRED("seed_target_required", ErrorKind.INVALID),
    TARGET_EXISTS("target_exists", ErrorKind.CONFLICT),
    TARGET_NOT_FOUND("target_not_found", ErrorKind.NOT_FOUND),
    TLS_OPTIONS_CONFLICT("tls_options_conflict", ErrorKind.INVALID),
    UNKNOWN_IMPL("unknown_impl", ErrorKind.INVALID),
    UNKNOWN_PRODUCT("unknown_product", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    TargetErrors(String code, ErrorKind kind) {
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
