package dev.backplane.kernel.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import java.util.Map;
import java.util.Optional;

/** Reading a tool call's arguments: a missing or mistyped one is {@code invalid_params} naming the field. */
public final class ToolArgs {

    private ToolArgs() {
    }

    public static String required(JsonNode a, String name) {
        return text(a, name).orElseThrow(() -> ToolErrors.INVALID_PARAMS.error("'" + name + "' is required",
                Map.of("field", name)));
    }

    public static Optional<String> text(JsonNode a, String name) {
        JsonNode v = a.path(name);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw ToolErrors.INVALID_PARAMS.error("'" + name + "' must be a string", Map.of("field", name));
        }
        return Optional.of(v.asText());
    }

    public static Optional<Integer> integer(JsonNode a, String name) {
        JsonNode v = a.path(name);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw ToolErrors.INVALID_PARAMS.error("'" + name + "' must be an integer", Map.of("field", name));
        }
        return Optional.of(v.asInt());
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(JsonNode a, String name) {
        JsonNode v = a.path(name);
        if (v.isMissingNode() || v.isNull()) {
            return Map.of();
        }
        if (!v.isObject()) {
            throw ToolErrors.INVALID_PARAMS.error("'" + name + "' must be an object", Map.of("field", name));
        }
        return JsonMapping.mapper().convertValue(v, Map.class);
    }
}
