package dev.backplane.kernel.errors;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A failure a service reports to its caller: its {@link ErrorKind}, SPEC's stable code (shown as
 * {@code error} and {@code extras.error_code}), a human message and extra fields. Thrown, never built
 * into responses by hand; {@code http.ErrorMapping} renders it with the status of its kind and
 * {@code mcp} as a JSON-RPC error.
 */
public class DomainException extends RuntimeException {

    private final ErrorKind kind;
    private final String code;
    private final Map<String, Object> extras;
    private final Map<String, String> headers;

    public DomainException(ErrorKind kind, String code, String message) {
        this(kind, code, message, Map.of());
    }

    public DomainException(ErrorKind kind, String code, String message, Map<String, ?> extras) {
        super(Objects.requireNonNull(message, "message is null"));
        this.kind = Objects.requireNonNull(kind, "kind is null");
        this.code = Objects.requireNonNull(code, "code is null");
        this.extras = Map.copyOf(extras);
        this.headers = Map.of();
    }

    private DomainException(DomainException base, Map<String, String> headers) {
        super(base.getMessage());
        this.kind = base.kind;
        this.code = base.code;
        this.extras = base.extras;
        this.headers = Map.copyOf(headers);
    }

    /** The same error, sent with the given response headers (for example {@code WWW-Authenticate}). */
    public DomainException withHeaders(Map<String, String> headers) {
        return new DomainException(this, headers);
    }

    /** The same error with one more entry in {@code extras}. */
    public DomainException withExtras(String key, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(extras);
        more.put(key, value);
        return new DomainException(kind, code, getMessage(), more).withHeaders(headers);
    }

    public Map<String, String> headers() {
        return headers;
    }

    public ErrorKind kind() {
        return kind;
    }

    public String code() {
        return code;
    }

    public Map<String, Object> extras() {
        return extras;
    }

    public static DomainException badRequest(String code, String message) {
        return new DomainException(ErrorKind.BAD_REQUEST, code, message);
    }

    public static DomainException unprocessable(String code, String message, Map<String, ?> extras) {
        return new DomainException(ErrorKind.INVALID, code, message, extras);
    }

    public static DomainException notFound(String code, String message) {
        return new DomainException(ErrorKind.NOT_FOUND, code, message);
    }

    public static DomainException forbidden(String code, String message) {
        return new DomainException(ErrorKind.FORBIDDEN, code, message);
    }
}
