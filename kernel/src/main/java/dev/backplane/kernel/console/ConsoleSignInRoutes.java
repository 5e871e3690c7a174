package dev.backplane.kernel.console;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.http.Authenticator;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.identity.TenantDirectory;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Signing in and out of the console: {@code /ui/login} starts an OIDC authorization-code flow with PKCE,
 * {@code /ui/callback} redeems the code, has the access token verified by the REST authenticator and
 * opens a session, keeping the refresh token server-side and sealed to re-validate it with (cookie
 * {@code HttpOnly; SameSite=Lax}, {@code Secure} unless served over plain http on loopback); {@code /ui/logout} closes it
 * and sends the browser on to the identity provider's logout ({@code end_session_endpoint}, {@code id_token_hint}); {@code /ui/tenant} points a platform_admin's session at
 * another tenant under the rules of {@code X-Svc-Tenant}.
 */
public final class ConsoleSignInRoutes implements ConsoleRoutes.PageGroupRoutes {

    private final ConsoleSessions sessions;
    private final OidcLogin oidc;
    private final Authenticator authenticator;
    private final TenantDirectory tenants;
    private final Supplier<String> publicUrl;
    private ConsoleRoutes console;

    /**
     * @param authenticator the REST authenticator: the login's access token is verified by it
     * @param publicUrl the URL browsers reach this kernel at (redirect URI, Secure cookies)
     */
    public ConsoleSignInRoutes(ConsoleSessions sessions, OidcLogin oidc, Authenticator authenticator,
                               TenantDirectory tenants, Supplier<String> publicUrl) {
        this.sessions = sessions;
        this.oidc = oidc;
        this.authenticator = authenticator;
        this.tenants = tenants;
        this.publicUrl = publicUrl;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        routing.get("/ui/login", this::login)
                .get("/ui/callback", this::callback)
                .post("/ui/logout", this::logout);
        console.page(routing, Method.POST, "/ui/tenant", Role.READ_ONLY, this::switchTenant);
    }

    /** The sign-out form's answer redirects to the identity provider's logout. */
    @Override
    public Optional<String> formTarget() {
        return oidc.issuerOrigin();
    }

    private void login(ServerRequest req, ServerResponse res) {
        console.secure(res);
        try {
            String back = ConsoleLinks.localReturn(req.query().first("return").orElse("/ui/kb"));
            PendingLogin login = sessions.startLogin(back);
            // the sign-in lives only in this sealed cookie (nothing is written on the server), and that binds it to
            // this browser: the callback needs the cookie to carry the same state, so a callback link made from
            // somebody else's sign-in (login CSRF) cannot put their session in this browser
            res.headers().add(HeaderNames.SET_COOKIE, cookieAt(LOGIN_COOKIE, sessions.sealLogin(login), "/ui/callback",
                    SignInCookie.LOGIN_TTL.toSeconds()));
            ConsoleRoutes.redirect(res, Status.FOUND_302, oidc.authorizationUrl(login, redirectUri()));
        } catch (DomainException e) {
            console.error(res, Optional.empty(), e);
        }
    }

    private void callback(ServerRequest req, ServerResponse res) {
        console.secure(res);
        try {
            Optional<String> providerError = req.query().first("error").asOptional();
            String state = req.query().first("state").orElse("");
            String bound = req.headers().cookies().first(LOGIN_COOKIE).orElse("");
            res.headers().add(HeaderNames.SET_COOKIE, cookieAt(LOGIN_COOKIE, "", "/ui/callback", 0));
            Optional<PendingLogin> login = sessions.takeLogin(bound, state);
            if (login.isEmpty()) {
                throw ConsoleErrors.LOGIN_FAILED.error("this sign-in was not started in this browser, or has expired; "
                        + "sign in again");
            }
            if (providerError.isPresent()) {
                throw ConsoleErrors.LOGIN_FAILED.error("the identity provider refused the sign-in: "
                        + providerError.get());
            }
            String code = req.query().first("code").orElseThrow(() ->
                    ConsoleErrors.LOGIN_FAILED.error("the identity provider sent no code; sign in again"));
            OidcLogin.Tokens tokens = oidc.redeem(code, login.get(), redirectUri());
            Caller caller = authenticator.authenticate(tokens.accessToken(), Optional.empty());
            String id = sessions.open(caller, tokens.refreshToken(), tokens.idToken());
            res.headers().add(HeaderNames.SET_COOKIE, cookie(id, sessions.ttl().toSeconds()));
            ConsoleRoutes.redirect(res, Status.FOUND_302, login.get().returnTo());
        } catch (DomainException e) {
            console.error(res, Optional.empty(), e);
        }
    }

    private void logout(ServerRequest req, ServerResponse res) throws IOException {
        console.secure(res);
        Optional<ConsoleRoutes.Signed> signed = Optional.empty();
        Optional<String> idToken = Optional.empty();
        try {
            signed = console.signedIn(req);
            if (signed.isPresent()) {
                ConsoleRequestRoutes.checkCsrf(signed.get(),
                        ConsoleRequestRoutes.form(req, ConsoleRoutes.MAX_FORM_BYTES));
                idToken = sessions.close(signed.get().id());
            }
        } catch (DomainException e) {
            console.error(res, signed, e);
            return;
        }
        res.header(HeaderNames.SET_COOKIE, cookie("", 0));
        // the console session is gone (on every replica); the browser then ends its session at the identity provider,
        // which would otherwise sign it straight back in at the next /ui/login
        Optional<String> atProvider = idToken.flatMap(oidc::logoutUrl);
        if (atProvider.isPresent()) {
            ConsoleRoutes.redirect(res, Status.SEE_OTHER_303, atProvider.get());
            return;
        }
        console.render(res, Status.OK_200, "message.jte", new ConsolePages.MessagePage("Signed out",
                "You are signed out of the console."));
    }

    private void switchTenant(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed signed, Map<String, String> form) {
        signed.caller().requirePlatformAdmin();
        UUID tenant;
        try {
            tenant = UUID.fromString(form.getOrDefault("tenant", "").trim());
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_TENANT.error("tenant must be a uuid", Map.of("field", "tenant"));
        }
        if (!signed.caller().homeTenantId().equals(Optional.of(tenant)) && !tenants.exists(tenant)) {
            throw CommonErrors.TENANT_NOT_FOUND.error("no tenant " + tenant + " is known to this backplane");
        }
        sessions.switchTenant(signed.id(), tenant);
        console.audited(signed.caller(), "POST /ui/tenant", Map.of(), Optional.of(JsonNodeFactory.instance.objectNode()
                .put("from", signed.caller().tenantId().toString()).put("to", tenant.toString())), 303);
        ConsoleRoutes.redirect(res, Status.SEE_OTHER_303, "/ui/kb");
    }

    private String redirectUri() {
        return publicUrl.get().replaceAll("/+$", "") + "/ui/callback";
    }

    /** The cookie that binds a pending sign-in to the browser that started it. */
    static final String LOGIN_COOKIE = "svc_console_login";

    private String cookie(String value, long maxAgeSeconds) {
        return cookieAt(ConsoleRoutes.COOKIE, value, "/ui", maxAgeSeconds);
    }

    /** Secure unless the console is served over plain http on loopback (a developer's machine). */
    private String cookieAt(String name, String value, String path, long maxAgeSeconds) {
        URI url = URI.create(publicUrl.get());
        boolean loopbackHttp = "http".equals(url.getScheme()) && url.getHost() != null
                && (url.getHost().equals("127.0.0.1") || url.getHost().equals("localhost") || url.getHost().equals("[::1]"));
        return name + "=" + value + "; Path=" + path + "; Max-Age=" + maxAgeSeconds + "; HttpOnly; SameSite=Lax"
                + (loopbackHttp ? "" : "; Secure");
    }
}
