package dev.backplane.kernel.console;

import dev.backplane.kernel.events.EventLog;
import dev.backplane.kernel.events.EventSource;
import dev.backplane.kernel.events.EventSources;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.scheduler.Triggers;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * {@code /ui/events}: event sources and the event log, for operators and above (as their REST routes). A tenant_admin
 * creates a source, rotates its secret (with an overlap during which the previous one still verifies) and pauses or
 * resumes it, through {@link EventSources} as {@code svc event-source} does, audited by it. A secret is entered or,
 * left empty, generated (32 random bytes); either way it is shown once, on the answer to the form that set it, and
 * never again. An event's page shows its normalised envelope and which triggers fired for it, with their runs.
 */
public final class ConsoleEventRoutes implements ConsoleRoutes.PageGroupRoutes {

    /** Events the list shows. */
    static final int EVENTS = 50;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final EventSources sources;
    private final EventLog log;
    private final Triggers triggers;
    private final Supplier<String> publicUrl;
    private ConsoleRoutes console;

    public ConsoleEventRoutes(EventSources sources, EventLog log, Triggers triggers, Supplier<String> publicUrl) {
        this.sources = sources;
        this.log = log;
        this.triggers = triggers;
        this.publicUrl = publicUrl;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/events", Role.OPERATOR, this::list);
        console.page(routing, Method.GET, "/ui/events/new", Role.TENANT_ADMIN, (req, res, s, f) ->
                console.render(res, Status.OK_200, "eventSourceForm.jte", new ConsolePages.EventSourceFormPage(
                        s.frame("New event source"), Map.of(), null)));
        console.page(routing, Method.POST, "/ui/events/new", Role.TENANT_ADMIN, this::create);
        console.page(routing, Method.GET, "/ui/events/sources/{slug}", Role.OPERATOR, (req, res, s, f) ->
                source(res, s, slug(req), null, null));
        console.page(routing, Method.POST, "/ui/events/sources/{slug}/rotate", Role.TENANT_ADMIN, this::rotate);
        console.page(routing, Method.POST, "/ui/events/sources/{slug}/pause", Role.TENANT_ADMIN, (req, res, s, f) ->
                source(res, s, sources.setStatus(s.caller(), slug(req), "paused").slug(), "Paused: deliveries are "
                        + "answered like a missing source (404) until it is resumed.", null));
        console.page(routing, Method.POST, "/ui/events/sources/{slug}/resume", Role.TENANT_ADMIN, (req, res, s, f) ->
                source(res, s, sources.setStatus(s.caller(), slug(req), "active").slug(), "Resumed.", null));
        console.page(routing, Method.GET, "/ui/events/log/{id}", Role.OPERATOR, this::event);
    }

    private void list(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        UUID tenant = s.caller().tenantId();
        console.render(res, Status.OK_200, "events.jte", new ConsolePages.EventsPage(s.frame("Events"),
                sources.list(tenant).stream().map(EventSource::view).toList(),
                log.list(tenant, Optional.empty(), Optional.empty(), EVENTS, Optional.empty()).events(),
                s.caller().effectiveRole().includes(Role.TENANT_ADMIN)));
    }

    private void create(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        String entered = f.getOrDefault("secret", "");
        String secret = entered.isEmpty() ? generated() : entered;
        EventSource created;
        try {
            created = sources.create(s.caller(), new EventSources.Write(blankToNull(f.get("slug")),
                    f.getOrDefault("name", "").strip(), f.get("kind"), f.get("auth_strategy"), secret, null, null, null));
        } catch (dev.backplane.kernel.errors.DomainException e) {
            Map<String, String> values = new java.util.HashMap<>(f);
            values.remove("secret"); // a refused form is shown again without the secret
            console.render(res, dev.backplane.kernel.http.ErrorMapping.status(e.kind()),
                    "eventSourceForm.jte", new ConsolePages.EventSourceFormPage(s.frame("New event source"), values,
                            e.code() + ": " + e.getMessage()));
            return;
        }
        source(res, s, created.slug(), "Created. Senders deliver to the ingest URL below.",
                new ConsolePages.ShownSecret(secret, entered.isEmpty()));
    }

    private void rotate(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        String entered = f.getOrDefault("secret", "");
        String secret = entered.isEmpty() ? generated() : entered;
        Integer overlap = Optional.ofNullable(blankToNull(f.get("overlap_seconds"))).map(v -> {
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw dev.backplane.kernel.errors.CommonErrors.INVALID_REQUEST.error("overlap_seconds must be a number",
                        Map.of("field", "overlap_seconds"));
            }
        }).orElse(null);
        EventSource rotated = sources.update(s.caller(), slug(req), new EventSources.Write(null, null, null, null,
                secret, null, null, overlap));
        source(res, s, rotated.slug(), "Rotated to secret version " + rotated.view().get("secret_version") + ".",
                new ConsolePages.ShownSecret(secret, entered.isEmpty()));
    }

    private void source(ServerResponse res, ConsoleRoutes.Signed s, String slug, String notice,
                        ConsolePages.ShownSecret secret) {
        Caller c = s.caller();
        EventSource source = sources.describe(c.tenantId(), slug);
        console.render(res, Status.OK_200, "eventSource.jte", new ConsolePages.EventSourcePage(s.frame(source.name()),
                source.view(), publicUrl.get() + source.view().get("ingest_path"),
                log.list(c.tenantId(), Optional.of(source.slug()), Optional.empty(), EVENTS, Optional.empty()).events(),
                c.effectiveRole().includes(Role.TENANT_ADMIN), notice, secret));
    }

    private void event(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        UUID tenant = s.caller().tenantId();
        UUID id = QueryParams.uuidPath(req, "id", text -> dev.backplane.kernel.events.EventErrors.EVENT_NOT_FOUND
                .error("no event " + text + " in this tenant"));
        Map<String, Object> event = log.show(tenant, id);
        console.render(res, Status.OK_200, "event.jte", new ConsolePages.EventPage(s.frame("Event"), event,
                ConsoleText.pretty(event.getOrDefault("envelope", Map.of())), triggers.firesOf(tenant, id)));
    }

    private static String slug(ServerRequest req) {
        return req.path().pathParameters().get("slug");
    }

    private static String blankToNull(String v) {
        return v == null || v.isBlank() ? null : v.strip();
    }

    /** A new source secret: 32 random bytes, base64url (43 printable characters). */
    static String generated() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

}
