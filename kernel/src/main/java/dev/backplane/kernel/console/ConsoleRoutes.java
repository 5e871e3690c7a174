package dev.backplane.kernel.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.ErrorMapping;
import dev.backplane.kernel.http.RequestIds;
import dev.backplane.kernel.http.TextGuard;
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
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The console under {@code /ui}: what every page shares — the session check, CSRF, text checks,
 * rendering and error pages — and the registration of the sign-in ({@link ConsoleSignInRoutes}) and
 * page routes ({@link ConsoleKbRoutes}, {@link ConsoleConnectorRoutes}). Pages call the same service methods as the REST routes and record
 * the same governance audit rows, under the REST route's name.
 */
public final class ConsoleRoutes {

    static final String COOKIE = "svc_console";
    /** Largest form accepted (a kb body is at most 256 KiB; form encoding can triple it). */
    static final int MAX_FORM_BYTES = 1 << 20;
    private static final System.Logger LOG = System.getLogger(ConsoleRoutes.class.getName());
    private static final String CSP = "default-src 'none'; style-src 'self'; img-src 'self' https: data:; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    /** The handler of a page or action for a signed-in user (named so: it speaks HTTP, like every *Routes type). */
    @FunctionalInterface
    interface PageRoutes {
        void handle(ServerRequest req, ServerResponse res, Signed signed, Map<String, String> form) throws Exception;
    }

    /** The session of a request, with its cookie value (to close or switch it). */
    record Signed(String id, ConsoleSession session) {
        Caller caller() {
            return session.caller();
        }

        ConsolePages.Frame frame(String title) {
            Caller c = session.caller();
            return new ConsolePages.Frame(title, c.username().orElse(c.sub()), c.effectiveRole().wireName(),
                    c.tenantId().toString(), c.platformAdmin(), session.csrfToken());
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
    }

    private final ConsoleSessions sessions;
    private final ApiRoutes.MutationRecorder audit;
    private final TemplateEngine templates = TemplateEngine.createPrecompiled(ContentType.Html);
    private final int maxUploadBytes;
    private final List<PageGroupRoutes> pages;

    /**
     * @param audit the governance trail REST mutations are recorded on
     * @param maxUploadBytes the largest upload form (spec ingest's request cap)
     * @param pages the page groups, registered in this order
     */
    public ConsoleRoutes(ConsoleSessions sessions, ApiRoutes.MutationRecorder audit, int maxUploadBytes,
                         List<PageGroupRoutes> pages) {
        this.sessions = sessions;
        this.audit = audit;
        this.maxUploadBytes = maxUploadBytes;
        this.pages = List.copyOf(pages);
    }

    public void register(HttpRouting.Builder routing) {
        routing.get("/ui", (req, res) -> redirect(res, Status.FOUND_302, "/ui/kb"))
                .get("/ui/static/console.css", this::stylesheet);
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
                Map<String, String> form = method == Method.POST ? form(req, maxUploadBytes) : Map.of();
                if (method == Method.POST) {
                    checkCsrf(signed.get(), form);
                }
                signed.get().caller().require(role);
                checkText(req, form);
                page.handle(req, res, signed.get(), form);
            } catch (DomainException e) {
                error(res, signed, e);
            } catch (Exception e) {
                String id = RequestIds.of(req);
                LOG.log(System.Logger.Level.ERROR, "console request " + id + " " + method.text() + " "
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
                .flatMap(id -> sessions.find(id).map(s -> new Signed(id, s)));
    }

    static void checkCsrf(Signed signed, Map<String, String> form) {
        byte[] expected = signed.session().csrfToken().getBytes(StandardCharsets.UTF_8);
        byte[] given = form.getOrDefault("_csrf", "").getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(expected, given)) {
            throw ConsoleErrors.CSRF_TOKEN_INVALID.error("this form is missing the session's CSRF token or carries "
                    + "another one; reload the page and try again");
        }
    }

    /** Text no service accepts (NUL, unpaired surrogates) is refused up front, as REST does: 422, not a 500. */
    private static void checkText(ServerRequest req, Map<String, String> form) {
        for (String name : req.query().names()) {
            TextGuard.checkParameter("(query parameter name)", name);
            for (String value : req.query().all(name)) {
                TextGuard.checkParameter(name, value);
            }
        }
        var path = req.path().pathParameters();
        for (String name : path.names()) {
            TextGuard.checkParameter(name, path.get(name));
        }
        form.forEach((name, value) -> {
            TextGuard.checkParameter("(form field name)", name);
            TextGuard.checkParameter(name, value);
        });
    }

    /**
     * The form of a POST: url-encoded (at most {@link #MAX_FORM_BYTES}), or multipart with uploads (at most
     * {@code maxUploadBytes}); an uploaded file's text is under its field name, its file name under
     * {@code <field>.filename}.
     */
    static Map<String, String> form(ServerRequest req, int maxUploadBytes) throws IOException {
        Optional<String> boundary = MultipartForm.boundary(req.headers().contentType()
                .map(t -> t.text()).orElse(null));
        int cap = boundary.isPresent() ? maxUploadBytes : MAX_FORM_BYTES;
        if (req.headers().contentLength().orElse(0) > cap) {
            throw CommonErrors.BODY_TOO_LARGE.error("the form exceeds " + cap + " bytes");
        }
        byte[] raw;
        try (InputStream in = req.content().inputStream()) {
            raw = in.readNBytes(cap + 1);
        }
        if (raw.length > cap) {
            throw CommonErrors.BODY_TOO_LARGE.error("the form exceeds " + cap + " bytes");
        }
        Map<String, String> form = new LinkedHashMap<>();
        if (boundary.isPresent()) {
            MultipartForm.parse(raw, boundary.get(), form).forEach((field, upload) -> {
                form.put(field, upload.content());
                form.put(field + ".filename", upload.name());
            });
            return form;
        }
        String text = new String(raw, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return form;
        }
        try {
            for (String pair : text.split("&")) {
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                form.putIfAbsent(name, value);
            }
        } catch (IllegalArgumentException e) {
            throw CommonErrors.UNREADABLE_REQUEST.error("the form is not valid application/x-www-form-urlencoded");
        }
        return form;
    }

    private void stylesheet(ServerRequest req, ServerResponse res) throws IOException {
        try (InputStream css = ConsoleRoutes.class.getResourceAsStream("/console/console.css")) {
            res.headers().contentType(HttpMediaType.create("text/css; charset=utf-8"));
            res.header(HeaderNames.CACHE_CONTROL, "max-age=300");
            res.send(css.readAllBytes());
        }
    }

    static void redirect(ServerResponse res, Status status, String location) {
        res.status(status);
        res.header(HeaderNames.LOCATION, location);
        res.send();
    }

    static void secure(ServerResponse res) {
        res.header(HeaderNames.create("Content-Security-Policy"), CSP);
        res.header(HeaderNames.create("X-Content-Type-Options"), "nosniff");
        res.header(HeaderNames.create("Referrer-Policy"), "same-origin");
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
    }
}
