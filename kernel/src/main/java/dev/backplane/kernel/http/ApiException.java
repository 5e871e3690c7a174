package dev.backplane.kernel.http;

import io.helidon.http.Status;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An error a handler reports to the caller: HTTP status, a stable code (shown as {@code error} and
 * {@code extras.error_code}), a human message and extra fields. Thrown, never built into responses
 * by hand; {@link ErrorMapping} renders it.
 */
public class ApiException extends RuntimeException {

    private final Status status;
    private final String code;
    private final Map<String, Object> extras;
    private final Map<String, String> headers;

    public ApiException(Status status, String code, String message) {
        this(status, code, message, Map.of());
    }

    public ApiException(Status status, String code, String message, Map<String, ?> extras) {
        super(Objects.requireNonNull(message, "message is null"));
        this.status = Objects.requireNonNull(status, "status is null");
        this.code = Objects.requireNonNull(code, "code is null");
        this.extras = Map.copyOf(extras);
        this.headers = Map.of();
    }

    private ApiException(ApiException base, Map<String, String> headers) {
        super(base.getMessage());
        this.status = base.status;
        this.code = base.code;
        this.extras = base.extras;
        this.headers = Map.copyOf(headers);
    }

    /** The same error, sent with the given response headers (for example {@code WWW-Authenticate}). */
    public ApiException withHeaders(Map<String, String> headers) {
        return new ApiException(this, headers);
    }

    /** The same error with one more entry in {@code extras}. */
    public ApiException withExtras(String key, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(extras);
        more.put(key, value);
        return new ApiException(status, code, getMessage(), more).withHeaders(headers);
    }

    public Map<String, String> headers() {
        return headers;
    }

    public Status status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, Object> extras() {
        return extras;
    }

    public ErrorEnvelope toEnvelope() {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("error_code", code);
        all.putAll(extras);
        return new ErrorEnvelope(code, getMessage(), all);
    }

    public static ApiException badRequest(String code, String message) {
        return new ApiException(Status.BAD_REQUEST_400, code, message);
    }

    public static ApiException unprocessable(String code, String message, Map<String, ?> extras) {
        return new ApiException(Status.create(422, "Unprocessable Content"), code, message, extras);
    }

    public static ApiException notFound(String code, String message) {
        return new ApiException(Status.NOT_FOUND_404, code, message);
    }

    public static ApiException forbidden(String code, String message) {
        return new ApiException(Status.FORBIDDEN_403, code, message);
    }
}
