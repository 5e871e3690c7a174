package dev.backplane.kernel.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.WireNames;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

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

    /**
     * What an {@code event_type} may be: a name, never prose. It is stored, filtered on, shown in the
     * activity feed and read by agents; the sender writes it, so it is bounded and cannot carry sentences.
     */
    private static final Pattern EVENT_TYPE = Pattern.compile("[A-Za-z0-9._:/-]{1,128}");

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
        SourceFormat format = SourceFormat.of(kind);

        ObjectNode env = JsonFields.NODES.objectNode();
        String eventType;
        try {
            eventType = format.lift(raw.isObject() ? raw : JsonFields.NODES.objectNode(), env);
        } catch (RuntimeException unexpected) {
            // belt and braces: a body shape nobody thought of degrades to the empty match set
            env.removeAll();
            eventType = null;
        }
        if (!isEventType(eventType)) {
            eventType = format.fallbackEventType();
        }
        if (!(env.get("labels") instanceof ObjectNode)) {
            env.set("labels", JsonFields.NODES.objectNode());
        }

        ObjectNode source = JsonFields.NODES.objectNode();
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
            String material = SourceFormat.of(kind).deliveryMaterial(body);
            return material == null
                    ? Optional.empty()
                    : Optional.of(kind.wire() + ":" + Digests.sha256Hex(kind.wire() + "\n" + material));
        } catch (RuntimeException unexpected) {
            return Optional.empty();
        }
    }

    /** True when the text is an acceptable {@code event_type}: 1-128 of letters, digits and {@code . _ : / -}. */
    public static boolean isEventType(String text) {
        return text != null && EVENT_TYPE.matcher(text).matches();
    }
}
