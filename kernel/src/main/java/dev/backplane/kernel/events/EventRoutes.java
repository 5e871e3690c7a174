package dev.backplane.kernel.events;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;

/**
 * REST of the events capability: event sources, the ingest route senders call, the event log.
 *
 * @param metrics where {@code svc_events_ingest_total} is counted (labels outcome: accepted, duplicate or
 *                refused, and reason: the refusal's error code — a closed set)
 */
public record EventRoutes(EventSources sources, EventIngest ingest, EventLog log, MeterRegistry metrics) {

    static final String SOURCES = "/api/v1/event-sources";
    static final String EVENTS = "/api/v1/events";

    public void register(ApiRoutes api) {
        Gauge.builder("svc.events.ingest.queue", ingest::waiting)
                .description("accepted deliveries waiting on this replica for their group commit (at "
                        + "the limit, deliveries are refused with 429)").register(metrics);
        api.publicRoute(Method.POST, EVENTS + "/ingest/{slug}", this::counted)
                .get(SOURCES, Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("event_sources",
                        sources.list(c.tenantId()).stream().map(EventSource::view).toList())));
        api.collection(SOURCES, "slug", Role.OPERATOR, Role.TENANT_ADMIN)
                .create(EventSources.Write.class, (c, w) -> sources.create(c, w).view())
                .show((c, slug) -> sources.describe(c.tenantId(), slug).view())
                .update(EventSources.Write.class, (c, slug, w) -> sources.update(c, slug, w).view())
                .pauseAndResume((c, slug, status) -> sources.setStatus(c, slug, status).view())
                .delete(sources::delete);
        api.get(EVENTS, Role.OPERATOR, this::list)
                .get(EVENTS + "/{id}", Role.OPERATOR, (req, res, c) -> Json.ok(res,
                        log.show(c.tenantId(), QueryParams.uuidPath(req, "id"))));
    }

    private void list(ServerRequest req, ServerResponse res, Caller c) {
        var page = log.list(c.tenantId(), req.query().first("source").asOptional(),
                req.query().first("event_type").asOptional(), QueryParams.integer(req, "limit", EventLog.PAGE.fallback()),
                req.query().first("cursor").asOptional());
        Json.ok(res, Map.of("events", page.events(), "next_cursor", page.nextCursor().orElse("")));
    }

    private void counted(ServerRequest req, ServerResponse res) {
        try {
            EventIngest.Accepted accepted = ingest(req, res);
            metrics.counter("svc.events.ingest", "outcome", accepted.duplicate() ? "duplicate" : "accepted", "reason", "-")
                    .increment();
        } catch (DomainException e) {
            metrics.counter("svc.events.ingest", "outcome", "refused", "reason", e.code()).increment();
            throw e;
        }
    }

    /** The sender's route: no bearer token; the source's own secret proves the sender. */
    private EventIngest.Accepted ingest(ServerRequest req, ServerResponse res) {
        EventSource source = ingest.source(req.path().pathParameters().get("slug"));
        long cap = ingest.bodyCap(source);
        byte[] body = Json.body(req, cap, () -> tooLarge(cap));
        var accepted = ingest.accept(source, name -> req.headers().first(HeaderNames.create(name)), body);
        Json.ok(res, accepted);
        return accepted;
    }

    private static DomainException tooLarge(long cap) {
        return CommonErrors.BODY_TOO_LARGE.error("the body exceeds this "
                + "source's cap of " + cap + " bytes");
    }
}
