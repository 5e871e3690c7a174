package dev.backplane.kernel.dispatch;

import java.util.Map;

/**
 * The answer to every call and preview: {@code status} (ok, error, denied, awaiting_approval; preview
 * adds unavailable), {@code op_id}, {@code result}, {@code error}, {@code duration_ms}, {@code extras}
 * (error_code, approval_request_id, validation_errors, fetch_more, ...).
 */
public record ResultEnvelope(String status, String opId, Object result, String error, long durationMs,
                             Map<String, Object> extras) {

    public static final String OK = "ok";
    public static final String ERROR = "error";
    public static final String DENIED = "denied";
    public static final String AWAITING_APPROVAL = "awaiting_approval";
    public static final String UNAVAILABLE = "unavailable";
}
