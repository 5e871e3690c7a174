package dev.backplane.kernel.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.ErrorMapping;
import dev.backplane.kernel.http.RequestIds;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The console under {@code /ui}: what every page shares — the session check, the request checks in order
 * ({@link ConsoleRequestRoutes}: headers, then the form and its CSRF token, then the role, then text), rendering and
 * error pages — and the registration of the sign-in ({@link ConsoleSignInRoutes}) and page routes ({@link
 * ConsoleKbRoutes}, {@link ConsoleConnectorRoutes}). Pages call the same service methods as the REST routes and
 * record the same governance audit rows, under the REST route's name.
 */
public final class ConsoleRoutes {

    static final String COOKIE = "svc_console";
    private static final String PICO = webJar("picocss__pico", "css/pico.min.css");
    private static final String CYTOSCAPE = webJar("cytoscape", "dist/cytoscape.min.js");
    /** Largest form accepted (a kb body is at most 256 KiB; form encoding can triple it). */
    static final int MAX_FORM_BYTES = 1 << 20;
    private static final System.Logger LOG = System.getLogger(ConsoleRoutes.class.getName());

    /** The handler of a page or action for a signed-in user (named so: it speaks HTTP, like every *Routes type). */
    @FunctionalInterface
    interface PageRoutes {
        void handle(ServerRequest req, ServerResponse res, Signed signed, Map<String, String> form) throws Exception;
    }

    /**
     * The session of a request, with its cookie value (to close or switch it) and the display name of the tenant it
     * acts on (null when none is set).
     */
    record Signed(String id, ConsoleSession session, String tenantName) {
        Signed(String id, ConsoleSession session) {
            this(id, session, null);
        }

        Caller caller() {
            return session.caller();
        }

        ConsolePages.Frame frame(String title) {
            Caller c = session.caller();
            return new ConsolePages.Frame(title, c.username().orElse(c.sub()), c.effectiveRole().wireName(),
                    c.tenantId().toString(), c.platformAdmin(), session.csrfToken(), tenantName);
        }

        @Override
        public String toString() {
            return "Signed[" + session + "]";
        }
    }

    /**
     * A group of pages (sign-in, kb, ingest, connectors), registered with the console that guards and renders
     * them (named so: it speaks HTTP, like every *Routes type).
     */
    public interface PageGroupRoutes {
        void register(ConsoleRoutes console, HttpRouting.Builder routing);

        /** An origin outside the console that this group's forms are sent on to (by a redirect), if any. */
        default Optional<String> formTarget() {
            return Optional.empty();
        }
    }

    private final ConsoleSessions sessions;
    private final LoadingCache<UUID, Optional<String>> tenantNames;
    private final ApiRoutes.MutationRecorder audit;
    private final TemplateEngine templates = TemplateEngine.createPrecompiled(ContentType.Html);
    private final int maxUploadBytes;
    private final List<PageGroupRoutes> pages;
    private final String csp;

    /**
     * @param audit the governance trail REST mutations are recorded on
     * @param maxUploadBytes the largest upload form (spec ingest's request cap)
     * @param tenantNames a tenant's display name, if it has one (the header shows it)
     * @param pages the page groups, registered in this order
     */
    public ConsoleRoutes(ConsoleSessions sessions, ApiRoutes.MutationRecorder audit, int maxUploadBytes,
                         Function<UUID, Optional<String>> tenantNames, List<PageGroupRoutes> pages) {
        this.sessions = sessions;
        // a rename shows on every replica's pages within the cache's 30 s
        this.tenantNames = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(Duration.ofSeconds(30))
                .build(tenantNames::apply);
        this.audit = audit;
        this.maxUploadBytes = maxUploadBytes;
        this.pages = List.copyOf(pages);
        this.csp = ConsoleRequestRoutes.csp(this.pages.stream().map(PageGroupRoutes::formTarget)
                .flatMap(Optional::stream).distinct().toList());
    }

    /** Forgets the cached display name of {@code tenant}: this replica's next page shows its new name at once. */
    void tenantRenamed(UUID tenant) {
        tenantNames.invalidate(tenant);
    }

    /** Sets the security headers of a console answer (the policy names the pages' form targets). */
    void secure(ServerResponse res) {
        ConsoleRequestRoutes.secure(res, csp);
    }

    public void register(HttpRouting.Builder routing) {
        routing.get("/ui/static/console.css", (req, res) -> asset(res, "/console/console.css", "text/css"))
                .get("/ui/static/console.js", (req, res) -> asset(res, "/console/console.js", "text/javascript"))
                .get("/ui/static/pico.min.css", (req, res) -> asset(res, PICO, "text/css"))
                .get("/ui/static/topology.js", (req, res) -> asset(res, "/console/topology.js", "text/javascript"))
                .get("/ui/static/cytoscape.min.js", (req, res) -> asset(res, CYTOSCAPE, "text/javascript"));
        pages.forEach(group -> group.register(this, routing));
    }

    /** Registers a page: signed-in users with {@code role}; a POST also needs the session's CSRF token. */
    void page(HttpRouting.Builder routing, Method method, String path, Role role, PageRoutes page) {
        ApiRoutes.Template template = new ApiRoutes.Template(path);
        routing.route(method, path, (req, res) -> {
            req.context().register(ApiRoutes.Template.class, template);
            secure(res);
            Optional<Signed> signed = Optional.empty();
            try {
                signed = signedIn(req);
                if (signed.isEmpty()) {
                    if (method == Method.GET) {
                        String back = req.path().rawPath() + (req.query().rawValue().isEmpty() ? "" : "?" + req.query().rawValue());
                        redirect(res, Status.FOUND_302, "/ui/login?return=" + ConsoleLinks.segment(back));
                        return;
                    }
                    throw ConsoleErrors.LOGIN_FAILED.error("you are not signed in, or your session has expired");
                }
                Map<String, String> form = method == Method.POST
                        ? ConsoleRequestRoutes.form(req, maxUploadBytes) : Map.of();
                if (method == Method.POST) {
                    ConsoleRequestRoutes.checkCsrf(signed.get(), form);
                }
                signed.get().caller().require(role);
                ConsoleRequestRoutes.checkText(req, form);
                page.handle(req, res, signed.get(), form);
            } catch (DomainException e) {
                error(res, signed, e);
            } catch (Exception e) {
                String id = RequestIds.of(req);
                LOG.log(Level.ERROR, "console request " + id + " " + method.text() + " "
                        + req.path().path() + " failed unexpectedly", e);
                error(res, signed, CommonErrors.INTERNAL_ERROR.error("internal error; quote request id " + id
                        + " when reporting it"));
            }
        });
    }

    /** Renders {@code template} with {@code model} as the whole response. */
    void render(ServerResponse res, Status status, String template, Object model) {
        StringOutput out = new StringOutput();
        templates.render(template, model, out);
        res.status(status);
        res.headers().contentType(HttpMediaType.create("text/html; charset=utf-8"));
        res.send(out.toString());
    }

    /** Puts a governance audit row exactly as the REST route {@code route} would. */
    void audited(Caller caller, String route, Map<String, String> pathParameters, Optional<JsonNode> body, int status) {
        audit.recorded(caller, route, pathParameters, body, status);
    }

    void error(ServerResponse res, Optional<Signed> signed, DomainException e) {
        Status status = ErrorMapping.status(e.kind());
        ConsolePages.Frame frame = signed.map(s -> s.frame("Refused")).orElse(null);
        render(res, status, "error.jte", new ConsolePages.ErrorPage(frame, status.code(), e.code(), e.getMessage()));
    }

    Optional<Signed> signedIn(ServerRequest req) {
        return req.headers().cookies().first(COOKIE).asOptional()
                .flatMap(id -> sessions.find(id).map(s -> new Signed(id, s,
                        tenantNames.get(s.caller().tenantId()).orElse(null))));
    }

    /** Sends a static file of the classpath: the console's stylesheet and script, and Pico CSS from its WebJar. */
    private static void asset(ServerResponse res, String resource, String type) throws IOException {
        try (InputStream in = ConsoleRoutes.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the kernel's classpath");
            }
            res.headers().contentType(HttpMediaType.create(type + "; charset=utf-8"));
            res.header(HeaderNames.create("X-Content-Type-Options"), "nosniff");
            res.header(HeaderNames.CACHE_CONTROL, "max-age=300");
            res.send(in.readAllBytes());
        }
    }

    /**
     * A file of a WebJar at the version the build resolved: Pico CSS and Cytoscape.js (both MIT, their licences
     * inside the WebJars).
     */
    private static String webJar(String artifact, String file) {
        java.util.Properties pom = new java.util.Properties();
        try (InputStream in = ConsoleRoutes.class.getResourceAsStream(
                "/META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties")) {
            pom.load(in);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("the WebJar " + artifact + " is missing from the kernel's classpath", e);
        }
        return "/META-INF/resources/webjars/" + artifact + "/" + pom.getProperty("version") + "/" + file;
    }

    static void redirect(ServerResponse res, Status status, String location) {
        res.status(status);
        res.header(HeaderNames.LOCATION, location);
        res.send();
    }
}
