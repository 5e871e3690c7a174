package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * What an operation returned. JSON values are Java objects: Map (object), List (array), String,
 * Number, Boolean, or null.
 */
public sealed interface OperationResult {

    /**
     * A set of rows, one JSON object each; the kernel may store it whole and return a sample.
     *
     * @param rows the rows
     * @param extras fields about the set as a whole, shown in the envelope's extras — for example
     *               {@code continue_token} for the next page of a server-side paged list (since 1.1)
     */
    record Rows(List<Map<String, Object>> rows, Map<String, Object> extras) implements OperationResult {
        public Rows {
            rows = List.copyOf(requireNonNull(rows, "rows is null"));
            extras = Map.copyOf(requireNonNull(extras, "extras is null"));
        }

        public Rows(List<Map<String, Object>> rows) {
            this(rows, Map.of());
        }
    }

    /**
     * One JSON value.
     *
     * @param value the value
     */
    record Document(Object value) implements OperationResult {
    }

    /**
     * An expected failure.
     *
     * @param code the error code shown as {@code extras.error_code}
     * @param message a message safe to show (no secrets)
     * @param extras extra fields, such as {@code exception_message}
     */
    record Failure(ErrorCode code, String message, Map<String, Object> extras) implements OperationResult {
        public Failure {
            requireNonNull(code, "code is null");
            requireNonNull(message, "message is null");
            extras = Map.copyOf(requireNonNull(extras, "extras is null"));
        }
    }
}
