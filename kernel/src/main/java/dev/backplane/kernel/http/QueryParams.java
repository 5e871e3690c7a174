package dev.backplane.kernel.http;

import io.helidon.webserver.http.ServerRequest;
import java.util.Map;

/** Typed query parameters; a malformed one is {@code 422 invalid_<name>}, never a 500. */
public final class QueryParams {

    private QueryParams() {
    }

    public static int integer(ServerRequest req, String name, int fallback) {
        return req.query().first(name).asOptional().map(v -> {
            try {
                return Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                throw ApiException.unprocessable("invalid_" + name, name + " must be a number, got '" + v + "'",
                        Map.of("field", name));
            }
        }).orElse(fallback);
    }

    /** {@code true} or {@code 1}; absent is false. */
    public static boolean flag(ServerRequest req, String name) {
        return req.query().first(name).asOptional().map(v -> v.equals("true") || v.equals("1")).orElse(false);
    }
}
