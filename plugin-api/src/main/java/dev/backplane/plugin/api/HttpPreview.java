package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The request an HTTP-shaped operation would send.
 *
 * @param method HTTP method
 * @param path the resolved path
 * @param query query parameters
 * @param body the request body with secret values redacted, if any
 */
public record HttpPreview(String method, String path, Map<String, List<String>> query, Optional<Object> body) {
    public HttpPreview {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        query = Map.copyOf(requireNonNull(query, "query is null"));
        requireNonNull(body, "body is null");
    }
}
