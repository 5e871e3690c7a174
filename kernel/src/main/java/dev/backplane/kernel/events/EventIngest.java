package dev.backplane.kernel.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.broadcast.Activity;
import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * {@code POST /api/v1/events/ingest/{slug}} in SPEC's fixed order: resolve the slug (404, identical
 * for unknown and paused) → body cap, checked while streaming ({@link #bodyCap}, 413) → authenticate
 * (401, uniform) → rate limit per source (429 with Retry-After) → parse (400 when not JSON) →
 * de-duplicate by delivery id or body hash, whichever the signature covers (idempotent 200;
 * {@link #deliveryId}) → one transaction: the normalised event into the
 * event log and its audit row. The cheap refusals come first and touch no database: the slug and
 * the secret come from caches every replica drops on change.
 */
public final class EventIngest implements AutoCloseable {

    /** What an accepted delivery answers. */
    public record Accepted(String status, UUID eventId, boolean duplicate) {
    }

    private static final System.Logger LOG = System.getLogger(EventIngest.class.getName());
    private static final ObjectReader READER = JsonMapping.mapper().reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

    private final EventStore store;
    private final EventCommits commits;
    private final EventSources sources;
    private final AuditLog audit;
    private final EventDrain drain;
    private final SourceRateLimits rateLimits;
    private final RefusalLog refusals = new RefusalLog();
    private final BroadcastFeed broadcast;

    /** @param defaultRatePerSecond a source's rate limit (all replicas together) unless its extras set one */
    public EventIngest(Jdbc jdbc, EventSources sources, AuditLog audit, EventDrain drain, long defaultRatePerSecond,
                       BroadcastFeed broadcast) {
        this.store = new EventStore(jdbc);
        this.commits = new EventCommits(store);
        this.broadcast = broadcast;
        this.sources = sources;
        this.audit = audit;
        this.drain = drain;
        this.rateLimits = new SourceRateLimits(jdbc, defaultRatePerSecond);
    }

    /** Step 1: the active source of this slug; unknown and paused answer the same 404. */
    public EventSource source(String slug) {
        Optional<EventSource> s = slug == null ? Optional.empty() : sources.bySlug(slug);
        if (s.isEmpty() || !s.get().active()) {
            throw notFound();
        }
        return s.get();
    }

    /** Step 2's number: the deploy's cap, or the source's lower one. */
    public long bodyCap(EventSource s) {
        return Math.min(sources.maxBodyBytes(), s.number("max_body_bytes", sources.maxBodyBytes()));
    }

    /** Steps 3 to 6 for a body read within the cap. */
    public Accepted accept(EventSource s, Function<String, Optional<String>> header, byte[] body) {
        Instant now = Instant.now();
        Optional<SourceSecrets.Keys> secrets = sources.acceptedSecrets(s);
        WebhookAuth.Verdict verdict = secrets.map(k -> WebhookAuth.verify(s, k, header, body, now))
                .orElse(WebhookAuth.Verdict.no("the source's secret cannot be read"));
        if (!verdict.accepted()) {
            refusals.note(s.slug(), verdict.reason());
            throw EventErrors.UNAUTHORIZED.error("the delivery could not be authenticated");
        }
        rateLimits.take(s);
        JsonNode parsed;
        try {
            parsed = READER.readTree(body);
        } catch (JsonProcessingException e) {
            throw CommonErrors.INVALID_JSON.error("the body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw CommonErrors.INVALID_JSON.error("the body is not JSON");
        }
        if (parsed == null || parsed.isMissingNode()) {
            throw CommonErrors.INVALID_JSON.error("the body is empty; a JSON document is expected");
        }
        String deliveryId = deliveryId(s, verdict.binding(), header, parsed, body);
        UUID eventId = UUID.randomUUID();
        ObjectNode envelope = EventNormalizer.normalize(s.kind(), parsed, s.slug(), s.id(), now);
        return store(s, deliveryId, eventId, envelope, body.length, now);
    }

    /**
     * The de-duplication key (step 5), taken only from what the delivery's proof covers (see
     * {@link WebhookAuth}): a delivery-id header where it is signed (Standard Webhooks) or where no
     * signature exists to bypass (static-header, basic); for a body-only signature, the body alone — its
     * kind's body delivery id, else its SHA-256 — so a replay of a captured body under a fresh
     * {@code webhook-id} is the same delivery, while a different body is a new one.
     */
    static String deliveryId(EventSource s, WebhookAuth.Binding binding, Function<String, Optional<String>> header,
                             JsonNode parsed, byte[] body) {
        Optional<String> fromHeader = binding == WebhookAuth.Binding.BODY ? Optional.empty()
                : header.apply(s.setting("id_header", WebhookAuth.DEFAULT_ID_HEADER))
                        .filter(v -> !v.isBlank() && v.length() <= 256).map(v -> "id:" + v);
        return fromHeader.or(() -> EventNormalizer.bodyDeliveryId(s.kind(), parsed))
                .orElseGet(() -> "sha256:" + Digests.sha256Hex(body));
    }

    private Accepted store(EventSource s, String deliveryId, UUID eventId, ObjectNode envelope, int bytes, Instant now) {
        String eventType = envelope.path("event_type").asText(null);
        String[] subscribers = drain.subscriberNames();
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("event_id", eventId.toString());
        extras.put("source", s.slug());
        extras.put("kind", s.kind().wire());
        extras.put("event_type", eventType);
        extras.put("delivery_id", deliveryId);
        extras.put("bytes", bytes);
        UUID auditId = UUID.randomUUID();
        AuditLog.Insert audited = AuditLog.insertSelectFrom("ev", auditId, AuditLog.Entry.byService(s.tenantId(),
                "svc-ingest:" + s.slug(), AuditClass.OTHER, "svc.events.ingest").target(s.slug()), "ok", extras);
        // one statement: the event, its audit row and a delivery row per subscriber — all of them or none, committed
        // with the other deliveries of the moment (EventCommits); the drains are told after the commit
        try {
            if (commits.write(new EventStore.NewEvent(eventId, s, deliveryId, eventType, envelope, now, auditId,
                    audited, subscribers))) {
                if (subscribers.length > 0) {
                    drain.announce(s.tenantId());
                }
                String principal = "svc-ingest:" + s.slug();
                broadcast.publish(Activity.of(s.tenantId(), Activity.Kind.INGEST, "event " + (eventType == null ? ""
                        : eventType + " ") + "from " + s.slug(), principal, principal, Optional.of("accepted")));
                return new Accepted("accepted", eventId, false);
            }
        } catch (EventCommits.Full e) {
            throw EventErrors.RATE_LIMITED.error("this replica is storing as many deliveries as it can ("
                    + commits.capacity() + " waiting); retry later").withHeaders(Map.of("Retry-After", "1"));
        } catch (Jdbc.DataAccessException e) {
            if (e.getCause() instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("22"))) {
                // data PostgreSQL cannot hold in jsonb (a \u0000 escape, a lone surrogate): the sender's fault
                throw CommonErrors.INVALID_JSON.error("the body holds characters that cannot be stored "
                        + "(a \\u0000 escape or an unpaired surrogate)");
            }
            LOG.log(System.Logger.Level.ERROR, "event log unavailable; delivery refused: " + e.getMessage());
            throw EventErrors.EVENT_LOG_UNAVAILABLE.error("the event could not be "
                    + "stored; nothing was accepted, retry later").withHeaders(Map.of("Retry-After", "5"));
        }
        UUID existing = store.existing(s.id(), deliveryId).orElse(null);
        return new Accepted("duplicate", existing, true);
    }

    /** Deliveries waiting to be committed on this replica ({@code svc_events_ingest_queue}). */
    public int waiting() {
        return commits.waiting();
    }

    /** Stops taking deliveries; those already queued are committed first. */
    @Override
    public void close() {
        commits.close();
    }

    /** The one 404 of the ingest route: the same answer whatever was missing. */
    static DomainException notFound() {
        return CommonErrors.NOT_FOUND.error("no event source at this address");
    }
}
