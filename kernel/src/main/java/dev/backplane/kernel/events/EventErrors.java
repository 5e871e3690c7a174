package dev.backplane.kernel.events;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the events capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum EventErrors implements ErrorCode {
    EVENT_LOG_UNAVAILABLE("event_log_unavailable", ErrorKind.UNAVAILABLE),
    EVENT_NOT_FOUND("event_not_found", ErrorKind.NOT_FOUND),
    EVENT_SOURCE_EXISTS("event_source_exists", ErrorKind.CONFLICT),
    EVENT_SOURCE_NOT_FOUND("event_source_not_found", ErrorKind.NOT_FOUND),
    EVENT_SOURCE_SECRETS_NEED_KV("event_source_secrets_need_kv", ErrorKind.NOT_IMPLEMENTED),
    INVALID_EVENT_SOURCE("invalid_event_source", ErrorKind.INVALID),
    INVALID_EXTRAS("invalid_extras", ErrorKind.INVALID),
    RATE_LIMITED("rate_limited", ErrorKind.RATE_LIMITED),
    UNAUTHORIZED("unauthorized", ErrorKind.UNAUTHENTICATED);

    private final String code;
    private final ErrorKind kind;

    EventErrors(String code, ErrorKind kind) {
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
