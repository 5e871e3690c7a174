package dev.backplane.kernel.events;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the events capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum EventErrors implements ErrorCode {
    EVENT_LOG_UNAVAILABLE(ErrorKind.UNAVAILABLE),
    EVENT_NOT_FOUND(ErrorKind.NOT_FOUND),
    EVENT_SOURCE_EXISTS(ErrorKind.CONFLICT),
    EVENT_SOURCE_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** cloudsm deploy without credentials.cloudsm.project: nowhere to keep a source's secret. */
    EVENT_SOURCE_SECRETS_NEED_PROJECT(ErrorKind.NOT_IMPLEMENTED),
    INVALID_EVENT_SOURCE(ErrorKind.INVALID),
    INVALID_EXTRAS(ErrorKind.INVALID),
    RATE_LIMITED(ErrorKind.RATE_LIMITED),
    UNAUTHORIZED(ErrorKind.UNAUTHENTICATED);

    private final ErrorKind kind;

    EventErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
