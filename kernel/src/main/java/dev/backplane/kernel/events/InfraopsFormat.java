package dev.backplane.kernel.events;

import static dev.backplane.kernel.events.JsonFields.NODES;
import static dev.backplane.kernel.events.JsonFields.lowerText;
import static dev.backplane.kernel.events.JsonFields.nullToEmpty;
import static dev.backplane.kernel.events.JsonFields.putIfPresent;
import static dev.backplane.kernel.events.JsonFields.scalar;
import static dev.backplane.kernel.events.JsonFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/**
 * VMware Aria Operations / vRealize Operations notifications ({@code infraops}): status, short criticality
 * and resource kind lifted; the delivery id hashes the alert id, status and update and cancel dates.
 */
final class InfraopsFormat implements SourceFormat {

    static final InfraopsFormat INSTANCE = new InfraopsFormat();

    private static final String CRITICALITY_PREFIX = "alert_criticality_level_";
    private static final List<String> CRITICALITIES = List.of("critical", "immediate", "warning", "info");

    private InfraopsFormat() {
    }

    @Override
    public String lift(JsonNode obj, ObjectNode env) {
        String status = lowerText(obj, "status");
        putIfPresent(env, "status", status);
        putIfPresent(env, "criticality", criticality(text(obj, "criticality")));
        putIfPresent(env, "resource_kind", text(obj, "resourceKind"));
        env.set("labels", NODES.objectNode());
        return status == null ? null : "alert." + status;
    }

    @Override
    public String fallbackEventType() {
        return "alert";
    }

    /**
     * The criticality short and lower-cased ({@code ALERT_CRITICALITY_LEVEL_CRITICAL} → {@code critical});
     * null unless it is critical, immediate, warning or info.
     */
    static String criticality(String value) {
        if (value == null) {
            return null;
        }
        String c = value.strip().toLowerCase(Locale.ROOT);
        if (c.startsWith(CRITICALITY_PREFIX)) {
            c = c.substring(CRITICALITY_PREFIX.length());
        }
        return CRITICALITIES.contains(c) ? c : null;
    }

    @Override
    public String deliveryMaterial(JsonNode obj) {
        String alertId = text(obj, "alertId");
        if (alertId == null) {
            return null;
        }
        return alertId + "\n" + nullToEmpty(lowerText(obj, "status")) + "\n" + scalar(obj, "updateDate") + "\n"
                + scalar(obj, "cancelDate");
    }
}
