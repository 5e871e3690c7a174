package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes only the console raises (the kind decides the HTTP status, as on REST). */
public enum ConsoleErrors implements ErrorCode {
    /** A form came without the session's CSRF token, or with another one. */
    CSRF_TOKEN_INVALID("csrf_token_invalid", ErrorKind.FORBIDDEN),
    /** The identity provider's redirect back did not match a sign-in this console started, or its code was refused. */
    LOGIN_FAILED("login_failed", ErrorKind.UNAUTHENTICATED),
    /** Too many sign-ins are in flight (each holds a row until it completes or expires). */
    TOO_MANY_SIGN_INS("too_many_sign_ins", ErrorKind.RATE_LIMITED),
    /** The identity provider could not be reached or answered something unusable. */
    IDENTITY_PROVIDER_UNAVAILABLE("identity_provider_unavailable", ErrorKind.UPSTREAM_FAILED);

    private final String code;
    private final ErrorKind kind;

    ConsoleErrors(String code, ErrorKind kind) {
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
