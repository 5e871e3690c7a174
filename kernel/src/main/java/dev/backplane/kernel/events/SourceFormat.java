package dev.backplane.kernel.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One sender family's reading of a webhook body for {@link EventNormalizer}: the fields it lifts into the
 * envelope, the event type it names and the delivery id material it carries. A format never throws on body
 * content; {@link EventNormalizer} checks the event type and fills in the envelope's own keys.
 */
interface SourceFormat {

    /** The format of a source kind. */
    static SourceFormat of(EventNormalizer.Kind kind) {
        return switch (kind) {
            case ALERTROUTER -> AlertGroupFormat.ALERTMANAGER;
            case DASHALERT -> AlertGroupFormat.GRAFANA;
            case INFRAOPS -> InfraopsFormat.INSTANCE;
            case REGISTRY -> RegistryFormat.INSTANCE;
            case GENERIC_JSON -> GenericJsonFormat.INSTANCE;
        };
    }

    /**
     * Puts the lifted fields (and labels) into env and answers the event type, unchecked (null when the body
     * names none). {@code body} is always a JSON object.
     */
    String lift(JsonNode body, ObjectNode env);

    /** What the body's delivery id hashes, or null when the body carries no id of the sender's. */
    String deliveryMaterial(JsonNode body);

    /** The event type when the body names none, or none that is acceptable: the kind's bare prefix. */
    String fallbackEventType();
}
