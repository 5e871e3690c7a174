package dev.backplane.kernel.console;

import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.broadcast.BroadcastFilter;
import dev.backplane.kernel.broadcast.BroadcastHub;
import dev.backplane.kernel.broadcast.BroadcastStream;
import dev.backplane.kernel.broadcast.BroadcastSubscription;
import dev.backplane.kernel.dashboards.Dashboards;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.scheduler.Automation;
import dev.backplane.kernel.scheduler.Automations;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code /ui}: the tenant now (pending approvals, dashboards' states, automations whose last run failed, the latest
 * activity), and {@code /ui/live}, the change signal every page listens to. The signal is a server-sent event per
 * activity of the tenant carrying only its kind: a page that hears one reloads its own live parts through its own
 * route, so what a user sees is always what that route lets them see.
 */
public final class ConsoleHomeRoutes implements ConsoleRoutes.PageGroupRoutes {

    /** Activity lines the home page lists. */
    static final int ACTIVITY = 15;

    private final Approvals approvals;
    private final Dashboards dashboards;
    private final Automations automations;
    private final BroadcastFeed feed;
    private final BroadcastHub hub;
    private final Duration heartbeat;
    private final dev.backplane.kernel.audit.AuditQueries names;
    private ConsoleRoutes console;

    /** @param names the usernames the activity's principals signed in with (its subjects are shown otherwise) */
    public ConsoleHomeRoutes(Approvals approvals, Dashboards dashboards, Automations automations, BroadcastFeed feed,
                             BroadcastHub hub, Duration heartbeat, dev.backplane.kernel.audit.AuditQueries names) {
        this.approvals = approvals;
        this.dashboards = dashboards;
        this.automations = automations;
        this.feed = feed;
        this.hub = hub;
        this.heartbeat = heartbeat;
        this.names = names;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui", Role.READ_ONLY, this::home);
        console.page(routing, Method.GET, "/ui/live", Role.READ_ONLY, this::live);
    }

    private void home(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        UUID tenant = s.caller().tenantId();
        boolean operator = s.caller().effectiveRole().includes(Role.OPERATOR);
        List<Automation> failing = operator ? automations.failing(tenant) : List.of();
        var activity = operator ? feed.recent(tenant, BroadcastFilter.ALL, Optional.empty(), ACTIVITY).events()
                : List.<dev.backplane.kernel.broadcast.BroadcastEvent>of();
        console.render(res, Status.OK_200, "home.jte", new ConsolePages.HomePage(s.frame("Home"),
                approvals.pendingCount(tenant), operator,
                operator ? dashboards.list(tenant, Dashboards.PAGE.max(), 0) : List.of(), failing, activity,
                names.usernamesOf(activity.stream().map(e -> e.principal()).distinct().toList())));
    }

    /**
     * Server-sent events: {@code event: change} with the activity's kind, one per activity of the tenant, and a
     * comment as heartbeat. The stream ends when the browser leaves or the kernel drains.
     */
    private void live(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        BroadcastSubscription sub = hub.subscribe(s.caller().tenantId(), BroadcastFilter.ALL);
        res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        try (OutputStream out = res.outputStream()) {
            BroadcastStream.signals(hub, sub, heartbeat, out);
        } catch (IOException | io.helidon.webserver.CloseConnectionException gone) {
            // the browser went away (Helidon reports a write to a closed connection unchecked)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the connection closed or the kernel drains
        } finally {
            hub.unsubscribe(sub);
        }
    }
}
