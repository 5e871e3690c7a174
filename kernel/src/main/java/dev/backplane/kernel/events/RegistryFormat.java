package dev.backplane.kernel.events;

import static dev.backplane.kernel.events.JsonFields.NODES;
import static dev.backplane.kernel.events.JsonFields.nullToEmpty;
import static dev.backplane.kernel.events.JsonFields.putIfPresent;
import static dev.backplane.kernel.events.JsonFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;

/**
 * Harbor webhooks ({@code registry}), default and CloudEvents formats: the event {@code type} lifted (CloudEvents
 * types mapped back to the default-format names); the delivery id hashes type, occurrence time, operator and data.
 */
final class RegistryFormat implements SourceFormat {

    static final RegistryFormat INSTANCE = new RegistryFormat();

    /** Harbor's CloudEvents types back to its default-format event types (harbor formats/cloudevents.go). */
    private static final Map<String, String> HARBOR_CLOUDEVENT_TYPES = Map.ofEntries(
            Map.entry("harbor.artifact.deleted", "DELETE_ARTIFACT"),
            Map.entry("harbor.artifact.pulled", "PULL_ARTIFACT"),
            Map.entry("harbor.artifact.pushed", "PUSH_ARTIFACT"),
            Map.entry("harbor.tag.created", "CREATE_TAG"),
            Map.entry("harbor.quota.exceeded", "QUOTA_EXCEED"),
            Map.entry("harbor.quota.warned", "QUOTA_WARNING"),
            Map.entry("harbor.replication.status.changed", "REPLICATION"),
            Map.entry("harbor.scan.failed", "SCANNING_FAILED"),
            Map.entry("harbor.scan.completed", "SCANNING_COMPLETED"),
            Map.entry("harbor.scan.stopped", "SCANNING_STOPPED"),
            Map.entry("harbor.tag_retention.finished", "TAG_RETENTION"));

    private RegistryFormat() {
    }

    @Override
    public String lift(JsonNode obj, ObjectNode env) {
        String type = type(obj);
        putIfPresent(env, "type", type);
        env.set("labels", NODES.objectNode());
        return type;
    }

    @Override
    public String fallbackEventType() {
        return "registry";
    }

    /**
     * The body's {@code type}; in a CloudEvents body (one with {@code specversion}) a known Harbor type is mapped
     * to its default-format name, an unknown one kept verbatim.
     */
    static String type(JsonNode obj) {
        String type = text(obj, "type");
        if (type == null) {
            return null;
        }
        if (obj.has("specversion")) {
            String mapped = HARBOR_CLOUDEVENT_TYPES.get(type.strip().toLowerCase(Locale.ROOT));
            if (mapped != null) {
                return mapped;
            }
        }
        return type;
    }

    @Override
    public String deliveryMaterial(JsonNode obj) {
        String type = type(obj);
        boolean cloudEvent = obj.has("specversion");
        JsonNode occurred = cloudEvent ? obj.get("time") : obj.get("occur_at");
        if (type == null || occurred == null || !occurred.isValueNode() || occurred.isNull()
                || occurred.asText().isBlank()) {
            return null;
        }
        JsonNode data = cloudEvent ? obj.get("data") : obj.get("event_data");
        return type + "\n" + occurred.asText() + "\n" + nullToEmpty(text(obj, "operator")) + "\n"
                + CanonicalJson.of(data);
    }
}
