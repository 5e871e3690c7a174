package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one HTTP request an operation call sends, before authentication is applied.
 *
 * @param method upper-case HTTP method
 * @param path the resolved, percent-encoded path including the connector's base path
 * @param query query parameters (not yet encoded), in order; a list repeats the key
 * @param headers header params, in order
 * @param body the body, if the operation has one
 */
record PlannedRequest(String method, String path, Map<String, List<String>> query, Map<String, String> headers,
                      Optional<Body> body) {

    PlannedRequest {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        requireNonNull(query, "query is null");
        requireNonNull(headers, "headers is null");
        requireNonNull(body, "body is null");
    }

    /** Path and query as they go on the request line. */
    String pathAndQuery() {
        String q = WireEncoding.query(query);
        return q.isEmpty() ? path : path + "?" + q;
    }

    /**
     * A request body.
     *
     * @param value the body as a JSON value (for a form, the object of its fields)
     * @param contentType the media type it is sent as
     */
    record Body(Object value, String contentType) {
        Body {
            requireNonNull(contentType, "contentType is null");
        }

        /** The bytes on the wire: form-encoded, verbatim text, or JSON. */
        byte[] encode() {
            return WireEncoding.body(value, contentType);
        }
    }
}
