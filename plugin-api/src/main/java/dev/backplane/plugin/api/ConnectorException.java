package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/** An expected connector failure with its code; the message must be safe to show (no secrets). */
public class ConnectorException extends RuntimeException {

    private final ErrorCode code;
    private final Map<String, Object> extras;

    public ConnectorException(ErrorCode code, String message) {
        this(code, message, Map.of(), null);
    }

    public ConnectorException(ErrorCode code, String message, Map<String, Object> extras, Throwable cause) {
        super(requireNonNull(message, "message is null"), cause);
        this.code = requireNonNull(code, "code is null");
        this.extras = Map.copyOf(requireNonNull(extras, "extras is null"));
    }

    public ErrorCode code() {
        return code;
    }

    public Map<String, Object> extras() {
        return extras;
    }
}
