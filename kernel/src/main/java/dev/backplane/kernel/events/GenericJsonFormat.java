package dev.backplane.kernel.events;

import static dev.backplane.kernel.events.JsonFields.labels;
import static dev.backplane.kernel.events.JsonFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Any JSON sender ({@code generic-json}): every top-level field copied, labels sanitized, the event type from the
 * body's {@code event_type}, else its {@code type}, when that is an acceptable name. The body carries no delivery id.
 */
final class GenericJsonFormat implements SourceFormat {

    static final GenericJsonFormat INSTANCE = new GenericJsonFormat();

    private GenericJsonFormat() {
    }

    @Override
    public String lift(JsonNode obj, ObjectNode env) {
        for (Map.Entry<String, JsonNode> field : obj.properties()) {
            env.set(field.getKey(), field.getValue());
        }
        env.set("labels", labels(obj.get("labels")));
        String type = eventTypeText(obj, "event_type");
        return type == null ? eventTypeText(obj, "type") : type;
    }

    @Override
    public String deliveryMaterial(JsonNode obj) {
        return null;
    }

    @Override
    public String fallbackEventType() {
        return "event";
    }

    /** The field's stripped string value when it is an acceptable event_type, else null. */
    private static String eventTypeText(JsonNode obj, String field) {
        String s = text(obj, field);
        return s != null && EventNormalizer.isEventType(s.strip()) ? s.strip() : null;
    }
}
