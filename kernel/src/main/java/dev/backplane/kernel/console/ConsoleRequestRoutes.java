package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.http.TextGuard;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What every console request goes through besides the session: the security headers of every answer, the form read
 * from the body within its cap ({@link ConsoleForms} decodes it), the session's CSRF token on every form, and text no
 * service accepts, refused up front (named so: it speaks HTTP, like every *Routes type).
 */
final class ConsoleRequestRoutes {

    private ConsoleRequestRoutes() {
    }

    /**
     * The content security policy of every console answer: scripts, styles and connections of the console's own
     * origin only (its one script, {@code console.js}: live updates, sorting, the theme; no inline script runs), no
     * framing, images of the console;
     * forms are sent to the console only, or on to one of {@code formTargets} (origins a form's answer redirects to,
     * such as the identity provider's logout: browsers hold the redirect after a form to {@code form-action} too).
     */
    static String csp(List<String> formTargets) {
        return "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; "
                + "img-src 'self' https: data:; form-action 'self'"
                + formTargets.stream().map(t -> " " + t).collect(Collectors.joining())
                + "; frame-ancestors 'none'; base-uri 'none'";
    }

    /** The headers of every console answer: {@code csp} (see {@link #csp}), no sniffing, no referrer off-site, no caching. */
    static void secure(ServerResponse res, String csp) {
        res.header(HeaderNames.create("Content-Security-Policy"), csp);
        res.header(HeaderNames.create("X-Content-Type-Options"), "nosniff");
        res.header(HeaderNames.create("Referrer-Policy"), "same-origin");
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
    }

    /**
     * The form of a POST: url-encoded (at most {@link ConsoleRoutes#MAX_FORM_BYTES}), or multipart with uploads (at
     * most {@code maxUploadBytes}); an uploaded file's text is under its field name, its file name under
     * {@code <field>.filename}.
     */
    static Map<String, String> form(ServerRequest req, int maxUploadBytes) throws IOException {
        Optional<String> boundary = MultipartForm.boundary(req.headers().contentType()
                .map(t -> t.text()).orElse(null));
        int cap = boundary.isPresent() ? maxUploadBytes : ConsoleRoutes.MAX_FORM_BYTES;
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
        return ConsoleForms.decode(raw, boundary);
    }

    /** Refuses a form without the session's CSRF token (compared in constant time). */
    static void checkCsrf(ConsoleRoutes.Signed signed, Map<String, String> form) {
        byte[] expected = signed.session().csrfToken().getBytes(StandardCharsets.UTF_8);
        byte[] given = form.getOrDefault("_csrf", "").getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(expected, given)) {
            throw ConsoleErrors.CSRF_TOKEN_INVALID.error("this form is missing the session's CSRF token or carries "
                    + "another one; reload the page and try again");
        }
    }

    /** Text no service accepts (NUL, unpaired surrogates) is refused up front, as REST does: 422, not a 500. */
    static void checkText(ServerRequest req, Map<String, String> form) {
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
}
