package dev.backplane.kernel.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;

/**
 * Text no request may carry, refused at the edge for every route at once (request bodies in
 * {@link Json#read}, path and query parameters in {@link ApiRoutes}): a NUL character, which PostgreSQL
 * text cannot hold (it used to surface as a 500 from deep inside a store), and an unpaired UTF-16
 * surrogate, which no UTF-8 encoder can write and which would be silently replaced by {@code ?} —
 * changed data instead of a clear refusal.
 */
public final class TextGuard {

    private TextGuard() {
    }

    /** Why {@code text} cannot be accepted, or empty. */
    public static Optional<String> problem(String text) {
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == 0) {
                return Optional.of("contains a NUL character (\\u0000)");
            }
            if (Character.isHighSurrogate(ch)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return Optional.of("contains an unpaired UTF-16 surrogate");
            }
            if (Character.isLowSurrogate(ch)) {
                return Optional.of("contains an unpaired UTF-16 surrogate");
            }
        }
        return Optional.empty();
    }

    /** Refuses a parameter (422 {@code invalid_text}) whose value cannot be accepted. */
    public static void checkParameter(String name, String value) {
        problem(value).ifPresent(p -> {
            throw DomainException.unprocessable(name.equals("query") ? "invalid_query" : "invalid_text",
                    "parameter '" + name + "' " + p, Map.of("field", name));
        });
    }

    /** Refuses a body (422 {@code invalid_text}) with such text in any string or field name, at any depth. */
    public static void check(JsonNode root) {
        Deque<Map.Entry<String, JsonNode>> todo = new ArrayDeque<>();
        todo.push(Map.entry("", root));
        while (!todo.isEmpty()) {
            var e = todo.pop();
            JsonNode n = e.getValue();
            if (n.isTextual()) {
                String at = e.getKey();
                problem(n.textValue()).ifPresent(p -> {
                    // a search's query keeps the code the search surfaces answer for a bad query
                    String code = at.equals("query") ? "invalid_query" : "invalid_text";
                    throw DomainException.unprocessable(code, "field '" + (at.isEmpty() ? "(body)" : at) + "' " + p,
                            Map.of("field", at));
                });
            } else if (n.isObject()) {
                for (var f : n.properties()) {
                    String at = e.getKey().isEmpty() ? f.getKey() : e.getKey() + "." + f.getKey();
                    problem(f.getKey()).ifPresent(p -> {
                        throw CommonErrors.INVALID_TEXT.error("a field name under '" + e.getKey() + "' " + p,
                                Map.of("field", e.getKey()));
                    });
                    todo.push(Map.entry(at, f.getValue()));
                }
            } else if (n.isArray()) {
                for (int i = 0; i < n.size(); i++) {
                    todo.push(Map.entry(e.getKey() + "[" + i + "]", n.get(i)));
                }
            }
        }
    }
}
