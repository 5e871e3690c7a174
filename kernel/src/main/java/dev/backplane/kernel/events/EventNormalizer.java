package dev.backplane.kernel.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.WireNames;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Turns one inbound webhook body into the normalized event envelope (SPEC "Normalized event
 * envelope"): the sender's status lifted to the top level, {@code labels}, {@code source}
 * {slug, kind, id}, {@code event_type}, {@code received_at} and {@code raw} (the body, verbatim).
 * Event filters are subset matches against the envelope minus {@code raw}, so every field a filter
 * may name sits at the top level.
 *
 * <h2>Lifted fields per kind</h2>
 * <ul>
 *   <li>{@code alertrouter} (Prometheus Alertmanager webhook, {@code "version": "4"}, and compatible
 *       senders): {@code status} (group status, lower-cased: {@code firing} / {@code resolved}),
 *       {@code labels} = {@code groupLabels} ∪ {@code commonLabels}, {@code alerts_count},
 *       {@code group_key}; {@code event_type} = {@code alert.<status>}.
 *   <li>{@code dashalert} (Grafana unified alerting webhook contact point): {@code state} (the
 *       body's {@code state}, lower-cased, else {@code status} mapped firing→alerting,
 *       resolved→ok), {@code labels} = {@code groupLabels} ∪ {@code commonLabels},
 *       {@code alerts_count}, {@code group_key}; {@code event_type} = {@code alert.<status>}.
 *   <li>{@code infraops} (VMware Aria Operations / vRealize Operations REST notification plugin or
 *       a webhook-plugin template with the same field names): {@code status} lower-cased
 *       ({@code active}, {@code canceled}, {@code updated}), {@code criticality} short and
 *       lower-cased ({@code ALERT_CRITICALITY_LEVEL_CRITICAL} → {@code critical}; only
 *       {@code critical}, {@code immediate}, {@code warning}, {@code info} are lifted),
 *       {@code resource_kind} from {@code resourceKind} verbatim; {@code event_type} =
 *       {@code alert.<status>}.
 *   <li>{@code registry} (Harbor webhooks): {@code type} verbatim ({@code PUSH_ARTIFACT},
 *       {@code SCANNING_COMPLETED}, {@code QUOTA_EXCEED}, {@code REPLICATION} …);
 *       {@code event_type} = that type. A Harbor policy set to the CloudEvents format sends
 *       {@code harbor.scan.completed} and the like: those are mapped back to the default-format
 *       names so one filter matches both formats; an unknown CloudEvents type is lifted verbatim.
 *   <li>{@code generic-json}: every top-level body field copied as-is; the envelope's own keys
 *       ({@code source}, {@code received_at}, {@code raw}, {@code event_type}) win on a clash, and
 *       {@code labels} is always the sanitized object described below. {@code event_type} is the
 *       body's {@code event_type}, else its {@code type}, when that is a string that is a valid event
 *       type (below, surrounding blanks ignored), else {@code event}.
 * </ul>
 * When the status a kind's {@code event_type} is built from is absent, {@code event_type} is the bare
 * prefix ({@code alert} or {@code registry}).
 *
 * <h2>event_type is a name</h2>
 * The sender writes it, and it is stored, filtered on, shown in the activity feed and read by agents,
 * so it must match {@code [A-Za-z0-9._:/-]{1,128}} — what Alertmanager, Grafana, Harbor (both formats),
 * CloudEvents types and the usual {@code deploy.finished}-style names all are. Anything else (prose, a
 * newline, an over-long value) is not refused, in keeping with the rule below that a body never fails
 * normalisation: {@code event_type} becomes the kind's bare prefix ({@code alert}, {@code registry},
 * {@code event}), as when it is absent; the sender's value stays in {@code raw} (and, for registry and
 * generic-json, in the lifted {@code type} field), which reaches a model only inside the untrusted block.
 *
 * <h2>Alertmanager: one event per delivery</h2>
 * One Alertmanager (and Grafana) webhook body carries the alerts of one aggregation group in
 * {@code alerts[]}. The normalizer emits ONE envelope per delivery, not one per alert: the lifted
 * {@code status} is the group's status, {@code labels} are the labels common to the group,
 * {@code alerts_count} is the group's size ({@code alerts.length + truncatedAlerts}) and
 * {@code group_key} the sender's {@code groupKey}. Rationale: Alertmanager already groups,
 * deduplicates and throttles (group_wait, group_interval, repeat_interval); splitting its
 * notification back into alerts would fire one agent run per alert where the operator configured
 * one notification, and its {@code groupKey} + status + alert fingerprints already identify the
 * delivery (see {@link #bodyDeliveryId}). Per-alert detail stays available under {@code raw}.
 *
 * <h2>Malformed bodies</h2>
 * Nothing here throws on body content. Wrong types, missing fields, arrays where objects are
 * expected, JSON null, a top-level array, string or number all degrade to an envelope whose lifted
 * fields are absent (an empty match set for every filter that names them), {@code labels} {@code {}}
 * and {@code raw} the body as given. A string status is lifted; a number, boolean, object or array
 * in its place is not. {@code labels} is always an object whose values are strings: string label
 * values are kept, numbers and booleans are kept as their text, nulls, objects and arrays are
 * dropped.
 *
 * <p>{@code raw} is the given node itself (not a copy; callers must not mutate the body afterwards);
 * a Java {@code null} or missing node becomes JSON {@code null}.
 */
public final class EventNormalizer {

    /** Source kinds: neutral names for the sender families, as they appear on the wire. */
    public enum Kind {
        ALERTROUTER, DASHALERT, INFRAOPS, REGISTRY, GENERIC_JSON;

        /** The kind as stored and shown: {@code alertrouter}, …, {@code generic-json}. */
        public String wire() {
            return WireNames.of(this);
        }

        /** The kind with this wire name (surrounding blanks and case ignored), else empty. */
        public static Optional<Kind> fromWire(String wire) {
            return wire == null ? Optional.empty() : WireNames.parse(Kind.class, wire.strip().toLowerCase(Locale.ROOT));
        }
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * What an {@code event_type} may be: a name, never prose. It is stored, filtered on, shown in the
     * activity feed and read by agents; the sender writes it, so it is bounded and cannot carry sentences.
     */
    private static final java.util.regex.Pattern EVENT_TYPE = java.util.regex.Pattern.compile("[A-Za-z0-9._:/-]{1,128}");

    private static final String CRITICALITY_PREFIX = "alert_criticality_level_";
    private static final List<String> CRITICALITIES = List.of("critical", "immediate", "warning", "info");

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

    private EventNormalizer() {
    }

    /**
     * The envelope for one delivery: lifted fields + {@code labels} + {@code source}{slug, kind, id}
     * + {@code event_type} + {@code received_at} (ISO 8601) + {@code raw}. Never throws because of
     * the body; throws {@link NullPointerException} only when kind, slug, id or receivedAt is null.
     */
    public static ObjectNode normalize(Kind kind, JsonNode body, String sourceSlug, UUID sourceId,
            Instant receivedAt) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(sourceSlug, "sourceSlug");
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(receivedAt, "receivedAt");
        JsonNode raw = body == null || body.isMissingNode() ? NullNode.getInstance() : body;

        ObjectNode env = NODES.objectNode();
        String eventType;
        try {
            eventType = lift(kind, raw, env);
        } catch (RuntimeException unexpected) {
            // belt and braces: a body shape nobody thought of degrades to the empty match set
            env.removeAll();
            eventType = fallbackEventType(kind);
        }
        if (!isEventType(eventType)) {
            eventType = fallbackEventType(kind);
        }
        if (!(env.get("labels") instanceof ObjectNode)) {
            env.set("labels", NODES.objectNode());
        }

        ObjectNode source = NODES.objectNode();
        source.put("slug", sourceSlug);
        source.put("kind", kind.wire());
        source.put("id", sourceId.toString());
        env.set("source", source);
        env.put("event_type", eventType);
        env.put("received_at", receivedAt.toString());
        env.set("raw", raw);
        return env;
    }

    /**
     * A delivery id the sender put in the body, for dedupe next to a header id; empty when the body
     * carries none (always for {@code generic-json}). The id is {@code <kind>:<sha256 hex>} over:
     * <ul>
     *   <li>alertrouter, dashalert: {@code groupKey} (required), the group status and, sorted, each
     *       alert's fingerprint (or its labels when it has none) with its status and startsAt: a
     *       retry of the same notification gives the same id; an alert joining, resolving or
     *       re-firing gives a new one. Key order and alert order do not matter.
     *   <li>registry: the event type and occurrence time (both required: {@code type} +
     *       {@code occur_at}, or a CloudEvents {@code type} + {@code time}), the operator and the
     *       canonical (key-sorted) {@code event_data} / {@code data} (digests, tags, repository …).
     *       The CloudEvents {@code id} is not used: Harbor mints a fresh UUID each time it formats
     *       the message, so it identifies the HTTP message rather than the event.
     *   <li>infraops: {@code alertId} (required), {@code status}, {@code updateDate},
     *       {@code cancelDate}.
     * </ul>
     * Never throws because of the body.
     */
    public static Optional<String> bodyDeliveryId(Kind kind, JsonNode body) {
        Objects.requireNonNull(kind, "kind");
        if (body == null || !body.isObject()) {
            return Optional.empty();
        }
        try {
            String material = switch (kind) {
                case ALERTROUTER, DASHALERT -> alertGroupMaterial(body);
                case REGISTRY -> registryMaterial(body);
                case INFRAOPS -> infraopsMaterial(body);
                case GENERIC_JSON -> null;
            };
            return material == null
                    ? Optional.empty()
                    : Optional.of(kind.wire() + ":" + Digests.sha256Hex(kind.wire() + "\n" + material));
        } catch (RuntimeException unexpected) {
            return Optional.empty();
        }
    }

    // ---- lifting --------------------------------------------------------------------------------

    /** Puts the kind's lifted fields (and labels) into env; returns the event_type. */
    private static String lift(Kind kind, JsonNode body, ObjectNode env) {
        JsonNode obj = body.isObject() ? body : NODES.objectNode();
        return switch (kind) {
            case ALERTROUTER -> {
                String status = lowerText(obj, "status");
                putIfPresent(env, "status", status);
                liftAlertGroup(obj, env);
                yield status == null ? "alert" : "alert." + status;
            }
            case DASHALERT -> {
                String status = lowerText(obj, "status");
                String state = lowerText(obj, "state");
                if (state == null && status != null) {
                    state = switch (status) {
                        case "firing" -> "alerting";
                        case "resolved" -> "ok";
                        default -> null;
                    };
                }
                putIfPresent(env, "state", state);
                liftAlertGroup(obj, env);
                yield status == null ? "alert" : "alert." + status;
            }
            case INFRAOPS -> {
                String status = lowerText(obj, "status");
                putIfPresent(env, "status", status);
                putIfPresent(env, "criticality", criticality(text(obj, "criticality")));
                putIfPresent(env, "resource_kind", text(obj, "resourceKind"));
                env.set("labels", NODES.objectNode());
                yield status == null ? "alert" : "alert." + status;
            }
            case REGISTRY -> {
                String type = registryType(obj);
                putIfPresent(env, "type", type);
                env.set("labels", NODES.objectNode());
                yield type == null ? "registry" : type;
            }
            case GENERIC_JSON -> {
                for (Map.Entry<String, JsonNode> field : obj.properties()) {
                    env.set(field.getKey(), field.getValue());
                }
                env.set("labels", labels(obj.get("labels")));
                String type = eventTypeText(obj, "event_type");
                if (type == null) {
                    type = eventTypeText(obj, "type");
                }
                yield type == null ? "event" : type;
            }
        };
    }

    /** True when the text is an acceptable {@code event_type}: 1-128 of letters, digits and {@code . _ : / -}. */
    public static boolean isEventType(String text) {
        return text != null && EVENT_TYPE.matcher(text).matches();
    }

    private static String fallbackEventType(Kind kind) {
        return switch (kind) {
            case ALERTROUTER, DASHALERT, INFRAOPS -> "alert";
            case REGISTRY -> "registry";
            case GENERIC_JSON -> "event";
        };
    }

    /** labels, alerts_count and group_key of an Alertmanager-style group notification. */
    private static void liftAlertGroup(JsonNode obj, ObjectNode env) {
        ObjectNode labels = labels(obj.get("groupLabels"));
        labels.setAll(labels(obj.get("commonLabels")));
        env.set("labels", labels);
        JsonNode alerts = obj.get("alerts");
        if (alerts != null && alerts.isArray()) {
            long count = alerts.size();
            JsonNode truncated = obj.get("truncatedAlerts");
            if (truncated != null && truncated.isIntegralNumber() && truncated.canConvertToLong()
                    && truncated.longValue() > 0) {
                long t = truncated.longValue();
                count = t > Long.MAX_VALUE - count ? Long.MAX_VALUE : count + t;
            }
            env.put("alerts_count", count);
        }
        putIfPresent(env, "group_key", text(obj, "groupKey"));
    }

    /** The label object with string values: strings kept, numbers and booleans as text, the rest dropped. */
    private static ObjectNode labels(JsonNode node) {
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

    private static String criticality(String value) {
        if (value == null) {
            return null;
        }
        String c = value.strip().toLowerCase(Locale.ROOT);
        if (c.startsWith(CRITICALITY_PREFIX)) {
            c = c.substring(CRITICALITY_PREFIX.length());
        }
        return CRITICALITIES.contains(c) ? c : null;
    }

    private static String registryType(JsonNode obj) {
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

    // ---- delivery ids ---------------------------------------------------------------------------

    private static String alertGroupMaterial(JsonNode obj) {
        String groupKey = text(obj, "groupKey");
        if (groupKey == null) {
            return null;
        }
        List<String> tokens = new ArrayList<>();
        JsonNode alerts = obj.get("alerts");
        if (alerts != null && alerts.isArray()) {
            for (JsonNode alert : alerts) {
                if (alert == null || !alert.isObject()) {
                    tokens.add(canonical(alert));
                    continue;
                }
                String identity = text(alert, "fingerprint");
                if (identity == null) {
                    identity = canonical(labels(alert.get("labels")));
                }
                tokens.add(identity + "\u001f" + nullToEmpty(text(alert, "status")) + "\u001f"
                        + nullToEmpty(text(alert, "startsAt")));
            }
        }
        tokens.sort(null);
        return groupKey + "\n" + nullToEmpty(lowerText(obj, "status")) + "\n" + String.join("\n", tokens);
    }

    private static String registryMaterial(JsonNode obj) {
        String type = registryType(obj);
        boolean cloudEvent = obj.has("specversion");
        JsonNode occurred = cloudEvent ? obj.get("time") : obj.get("occur_at");
        if (type == null || occurred == null || !occurred.isValueNode() || occurred.isNull()
                || occurred.asText().isBlank()) {
            return null;
        }
        JsonNode data = cloudEvent ? obj.get("data") : obj.get("event_data");
        return type + "\n" + occurred.asText() + "\n" + nullToEmpty(text(obj, "operator")) + "\n"
                + canonical(data);
    }

    private static String infraopsMaterial(JsonNode obj) {
        String alertId = text(obj, "alertId");
        if (alertId == null) {
            return null;
        }
        return alertId + "\n" + nullToEmpty(lowerText(obj, "status")) + "\n" + scalar(obj, "updateDate") + "\n"
                + scalar(obj, "cancelDate");
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** The field's string value when it is a non-blank JSON string, else null. */
    private static String text(JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || !v.isTextual()) {
            return null;
        }
        String s = v.textValue();
        return s.isBlank() ? null : s;
    }

    /** The field's stripped string value when it is an acceptable event_type, else null. */
    private static String eventTypeText(JsonNode obj, String field) {
        String s = text(obj, field);
        return s != null && isEventType(s.strip()) ? s.strip() : null;
    }

    private static String lowerText(JsonNode obj, String field) {
        String s = text(obj, field);
        return s == null ? null : s.strip().toLowerCase(Locale.ROOT);
    }

    /** A scalar field as text ("" when absent, null or not a scalar). */
    private static String scalar(JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        return v == null || v.isNull() || !v.isValueNode() ? "" : v.asText();
    }

    private static void putIfPresent(ObjectNode env, String field, String value) {
        if (value != null) {
            env.put(field, value);
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /**
     * Canonical JSON text: object keys sorted, no whitespace. Iterative, so nesting depth cannot
     * overflow the stack.
     */
    static String canonical(JsonNode root) {
        StringBuilder out = new StringBuilder();
        Deque<Object> work = new ArrayDeque<>();
        work.push(root == null ? NullNode.getInstance() : root);
        while (!work.isEmpty()) {
            Object item = work.pop();
            if (item instanceof String literal) {
                out.append(literal);
                continue;
            }
            JsonNode n = (JsonNode) item;
            if (n.isObject()) {
                List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(n.properties());
                fields.sort(Map.Entry.comparingByKey());
                out.append('{');
                work.push("}");
                for (int i = fields.size() - 1; i >= 0; i--) {
                    JsonNode value = fields.get(i).getValue();
                    work.push(value == null ? NullNode.getInstance() : value);
                    work.push(quote(fields.get(i).getKey()) + ":");
                    if (i > 0) {
                        work.push(",");
                    }
                }
            } else if (n.isArray()) {
                out.append('[');
                work.push("]");
                for (int i = n.size() - 1; i >= 0; i--) {
                    JsonNode value = n.get(i);
                    work.push(value == null ? NullNode.getInstance() : value);
                    if (i > 0) {
                        work.push(",");
                    }
                }
            } else if (n.isTextual()) {
                out.append(quote(n.textValue()));
            } else if (n.isNull() || n.isMissingNode()) {
                out.append("null");
            } else if (n.isNumber() || n.isBoolean()) {
                out.append(n.asText());
            } else {
                out.append(quote(n.asText()));
            }
        }
        return out.toString();
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
