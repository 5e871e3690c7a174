package dev.backplane.kernel.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;

/**
 * Lenient reads of webhook body fields shared by the {@link SourceFormat}s: a field of the wrong type reads as
 * absent, never as an error.
 */
final class JsonFields {

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonFields() {
    }

    /** The field's string value when it is a non-blank JSON string, else null. */
    static String text(JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || !v.isTextual()) {
            return null;
        }
        String s = v.textValue();
        return s.isBlank() ? null : s;
    }

    /** {@link #text}, stripped and lower-cased. */
    static String lowerText(JsonNode obj, String field) {
        String s = text(obj, field);
        return s == null ? null : s.strip().toLowerCase(Locale.ROOT);
    }

    /** A scalar field as text ("" when absent, null or not a scalar). */
    static String scalar(JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        return v == null || v.isNull() || !v.isValueNode() ? "" : v.asText();
    }

    static void putIfPresent(ObjectNode env, String field, String value) {
        if (value != null) {
            env.put(field, value);
        }
    }

    static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /** The label object with string values: strings kept, numbers and booleans as text, the rest dropped. */
    static ObjectNode labels(JsonNode node) {
        ObjectNode out = NODES.objectNode();
        if (node == null || !node.isObject()) {
            return out;
        }
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            JsonNode v = e.getValue();
            if (v == null) {
                continue;
            }
            if (v.isTextual()) {
                out.put(e.getKey(), v.textValue());
            } else if (v.isNumber() || v.isBoolean()) {
                out.put(e.getKey(), v.asText());
            }
        }
        return out;
    }
}
