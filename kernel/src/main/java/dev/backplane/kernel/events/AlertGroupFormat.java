package dev.backplane.kernel.events;

import static dev.backplane.kernel.events.JsonFields.labels;
import static dev.backplane.kernel.events.JsonFields.lowerText;
import static dev.backplane.kernel.events.JsonFields.nullToEmpty;
import static dev.backplane.kernel.events.JsonFields.putIfPresent;
import static dev.backplane.kernel.events.JsonFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Group notifications of Prometheus Alertmanager ({@code alertrouter}) and Grafana unified alerting
 * ({@code dashalert}): one envelope per delivery with the group's status (Grafana: its state), the labels
 * common to the group, its size and its key; the delivery id hashes the group key, status and alerts.
 */
final class AlertGroupFormat implements SourceFormat {

    /** Alertmanager lifts the group {@code status}. */
    static final AlertGroupFormat ALERTMANAGER = new AlertGroupFormat(false);
    /** Grafana lifts {@code state}: the body's, else its status mapped firing→alerting, resolved→ok. */
    static final AlertGroupFormat GRAFANA = new AlertGroupFormat(true);

    private final boolean liftsState;

    private AlertGroupFormat(boolean liftsState) {
        this.liftsState = liftsState;
    }

    @Override
    public String lift(JsonNode obj, ObjectNode env) {
        String status = lowerText(obj, "status");
        if (liftsState) {
            putIfPresent(env, "state", grafanaState(lowerText(obj, "state"), status));
        } else {
            putIfPresent(env, "status", status);
        }
        liftGroup(obj, env);
        return status == null ? null : "alert." + status;
    }

    @Override
    public String fallbackEventType() {
        return "alert";
    }

    /** Grafana's state: the body's, else the status mapped firing→alerting, resolved→ok, else null. */
    static String grafanaState(String state, String status) {
        if (state != null || status == null) {
            return state;
        }
        return switch (status) {
            case "firing" -> "alerting";
            case "resolved" -> "ok";
            default -> null;
        };
    }

    /** labels, alerts_count and group_key of an Alertmanager-style group notification. */
    private static void liftGroup(JsonNode obj, ObjectNode env) {
        ObjectNode labels = labels(obj.get("groupLabels"));
        labels.setAll(labels(obj.get("commonLabels")));
        env.set("labels", labels);
        JsonNode alerts = obj.get("alerts");
        if (alerts != null && alerts.isArray()) {
            env.put("alerts_count", alertsCount(alerts.size(), obj.get("truncatedAlerts")));
        }
        putIfPresent(env, "group_key", text(obj, "groupKey"));
    }

    /** The group's size: the alerts sent plus a positive whole {@code truncatedAlerts}, capped at Long.MAX_VALUE. */
    static long alertsCount(long sent, JsonNode truncated) {
        if (truncated != null && truncated.isIntegralNumber() && truncated.canConvertToLong()
                && truncated.longValue() > 0) {
            long t = truncated.longValue();
            return t > Long.MAX_VALUE - sent ? Long.MAX_VALUE : sent + t;
        }
        return sent;
    }

    @Override
    public String deliveryMaterial(JsonNode obj) {
        String groupKey = text(obj, "groupKey");
        if (groupKey == null) {
            return null;
        }
        List<String> tokens = new ArrayList<>();
        JsonNode alerts = obj.get("alerts");
        if (alerts != null && alerts.isArray()) {
            for (JsonNode alert : alerts) {
                if (alert == null || !alert.isObject()) {
                    tokens.add(CanonicalJson.of(alert));
                    continue;
                }
                String identity = text(alert, "fingerprint");
                if (identity == null) {
                    identity = CanonicalJson.of(labels(alert.get("labels")));
                }
                tokens.add(identity + "\u001f" + nullToEmpty(text(alert, "status")) + "\u001f"
                        + nullToEmpty(text(alert, "startsAt")));
            }
        }
        tokens.sort(null);
        return groupKey + "\n" + nullToEmpty(lowerText(obj, "status")) + "\n" + String.join("\n", tokens);
    }
}
