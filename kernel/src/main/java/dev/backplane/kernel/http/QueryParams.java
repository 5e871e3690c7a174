package dev.backplane.kernel.http;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import io.helidon.webserver.http.ServerRequest;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/** Typed query and path parameters; a malformed one is {@code 422 invalid_<name>}, never a 500. */
public final class QueryParams {

    private QueryParams() {
    }

    public static int integer(ServerRequest req, String name, int fallback) {
        return req.query().first(name).asOptional().map(v -> parse(v, text -> DomainException.unprocessable(
                "invalid_" + name, name + " must be a number, got '" + text + "'", Map.of("field", name))))
                .orElse(fallback);
    }

    /**
     * {@code limit}, or {@code fallback} when absent; a malformed one is {@code 422 invalid_limit} naming the
     * route's range ("limit must be an integer 1..500"), which the service enforces.
     */
    public static int limit(ServerRequest req, int fallback, int max) {
        return req.query().first("limit").asOptional().map(v -> parse(v, text -> CommonErrors.INVALID_LIMIT.error(
                "limit must be an integer 1.." + max + ", got '" + text + "'", Map.of("field", "limit"))))
                .orElse(fallback);
    }

    private static int parse(String text, Function<String, DomainException> malformed) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw malformed.apply(text);
        }
    }

    /** {@code true} or {@code 1}; absent is false. */
    public static boolean flag(ServerRequest req, String name) {
        return req.query().first(name).asOptional().map(v -> v.equals("true") || v.equals("1")).orElse(false);
    }

    /** A uuid path parameter; a malformed one is {@code 422 invalid_<name>} ("job id must be a uuid, got 'x'"). */
    public static UUID uuidPath(ServerRequest req, String name) {
        return uuidPath(req, name, text -> DomainException.unprocessable("invalid_" + name, name.replace('_', ' ')
                + " must be a uuid, got '" + text + "'", Map.of("field", name)));
    }

    /**
     * A uuid path parameter, with the route's own answer to a malformed one: where the path names one
     * resource, a malformed id is that resource's 404, as an unknown one is.
     */
    public static UUID uuidPath(ServerRequest req, String name, Function<String, DomainException> malformed) {
        String text = req.path().pathParameters().get(name);
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw malformed.apply(text);
        }
    }
}
