package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /api/v1/broadcast}: the activity feed's history ({@code recent}), its live stream, a summary
 * for {@code svc status}, announcements, and the tenant's overrides.
 */
public record BroadcastRoutes(BroadcastFeed feed, BroadcastHub hub, Duration heartbeat) {

    static final String BASE = "/api/v1/broadcast";

    public void register(ApiRoutes api) {
        api.get(BASE + "/recent", Role.OPERATOR, (req, res, c) -> Json.ok(res, feed.recent(c.tenantId(),
                        new BroadcastFilter(text(req, "op_class"), text(req, "principal"), text(req, "target"),
                                text(req, "work_ref"), text(req, "actor_sub"), QueryParams.flag(req, "active_only")),
                        text(req, "cursor"), QueryParams.integer(req, "limit", BroadcastFeed.RECENT_DEFAULT))))
                .get(BASE + "/stream", Role.OPERATOR, this::stream)
                .get(BASE + "/summary", Role.OPERATOR, (req, res, c) -> Json.ok(res, feed.summary(c.tenantId(),
                        text(req, "since").orElse("1h"))))
                .post(BASE + "/announcements", Role.OPERATOR, (req, res, c) -> Json.send(res, Status.CREATED_201,
                        feed.announce(c, Json.read(req, BroadcastFeed.Announcement.class))))
                .get(BASE + "/overrides", Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("overrides",
                        feed.overrides().list(c.tenantId(), text(req, "op_id_pattern")))))
                .post(BASE + "/overrides", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, feed.overrides().set(
                        c.tenantId(), c.sub(), Json.read(req, BroadcastOverrides.Change.class))))
                .delete(BASE + "/overrides/{id}", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, feed.overrides()
                        .remove(c.tenantId(), QueryParams.uuidPath(req, "id", BroadcastOverrides::notFound))));
    }

    private void stream(ServerRequest req, ServerResponse res, Caller c) {
        BroadcastFilter filter = BroadcastFilter.stream(text(req, "op_class"), text(req, "principal"), text(req, "target"));
        filter.opClass().ifPresent(BroadcastFeed::checkOpClass);
        Optional<Long> last = req.headers().first(HeaderNames.create("Last-Event-ID"))
                .or(() -> text(req, "last_event_id")).map(BroadcastRoutes::streamId);
        // subscribed before the replay reads the log, so nothing committed in between is missed
        BroadcastSubscription sub = hub.subscribe(c.tenantId(), filter);
        res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        try (OutputStream out = res.outputStream()) {
            BroadcastStream.run(feed, hub, sub, c.tenantId(), filter, last, heartbeat, out);
        } catch (IOException | io.helidon.webserver.CloseConnectionException gone) {
            // the client went away (Helidon reports a write to a closed connection unchecked)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            hub.unsubscribe(sub);
        }
    }

    private static long streamId(String text) {
        try {
            long id = Long.parseLong(text.trim());
            if (id >= 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw BroadcastErrors.INVALID_FILTER.error("Last-Event-ID must be a stream id (the id: of an event), got '"
                + text + "'", Map.of("field", "last_event_id"));
    }

    private static Optional<String> text(ServerRequest req, String name) {
        return req.query().first(name).asOptional().filter(v -> !v.isEmpty());
    }
}
