package dev.backplane.kernel.http;

import java.util.Map;

/**
 * The one JSON body of every error response: {@code {"error", "message", "extras": {"error_code", ...}}}.
 */
public record ErrorEnvelope(String error, String message, Map<String, Object> extras) {
}
