package dev.backplane.kernel.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.util.JsonMapping;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Accepted events as the ingest builds them, for tests that write them through {@link EventStore} directly. */
final class TestEvents {

    private TestEvents() {
    }

    /** A generic-JSON source of a new tenant (not stored: the event tables do not reference it). */
    static EventSource source(String name) {
        return new EventSource(UUID.randomUUID(), UUID.randomUUID(), "src-" + UUID.randomUUID(), name,
                EventNormalizer.Kind.GENERIC_JSON, EventSource.AuthStrategy.HMAC_SHA256,
                JsonMapping.mapper().createObjectNode(), "active", 1, Optional.empty(), Instant.now(), "test",
                Instant.now(), "test");
    }

    /** An event of {@code source} with its audit row, delivered to {@code subscribers}; {@code note} is in its body. */
    static EventStore.NewEvent event(EventSource source, String deliveryId, String note, String... subscribers) {
        UUID eventId = UUID.randomUUID();
        UUID auditId = UUID.randomUUID();
        ObjectNode envelope = JsonMapping.mapper().createObjectNode().put("event_type", "test").put("note", note);
        AuditLog.Insert audited = AuditLog.insertSelectFrom("ev", auditId, AuditLog.Entry.byService(source.tenantId(),
                "svc-ingest:" + source.slug(), AuditClass.OTHER, "svc.events.ingest").target(source.slug()), "ok",
                Map.of("event_id", eventId.toString(), "delivery_id", deliveryId));
        return new EventStore.NewEvent(eventId, source, deliveryId, "test", envelope, Instant.now(), auditId, audited,
                subscribers);
    }
}
