package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes only the console raises (the kind decides the HTTP status, as on REST). */
public enum ConsoleErrors implements ErrorCode {
    /** A form came without the session's CSRF token, or with another one. */
    CSRF_TOKEN_INVALID(ErrorKind.FORBIDDEN),
    /** The identity provider's redirect back did not match a sign-in this console started, or its code was refused. */
    LOGIN_FAILED(ErrorKind.UNAUTHENTICATED),
    /** The identity provider could not be reached or answered something unusable. */
    IDENTITY_PROVIDER_UNAVAILABLE(ErrorKind.UPSTREAM_FAILED);

    private final ErrorKind kind;

    ConsoleErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
