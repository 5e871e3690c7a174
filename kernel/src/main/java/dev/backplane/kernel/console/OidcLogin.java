package dev.backplane.kernel.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.TokenVerifier;
import dev.backplane.kernel.util.JsonMapping;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * The console's side of the OIDC authorization-code flow with PKCE (S256) against the issuer the
 * kernel trusts: builds the authorization URL, redeems the code at the token endpoint, and checks the
 * ID token (signature, issuer, audience = the console client, nonce). The access token it returns is
 * then verified by the REST authenticator, so a console user is the same caller as on REST. The HTTP to the
 * provider (discovery, form posts) is {@link OidcProvider}'s.
 */
public final class OidcLogin {

    private final String issuer;
    private final OidcProvider provider;
    private final String clientId;
    private final TokenVerifier idTokens;

    /**
     * @param issuer the trusted issuer (its discovery document names the endpoints)
     * @param clientId the console's public client ({@code svc-console})
     * @param idTokens verifies ID tokens for audience {@code clientId}
     */
    public OidcLogin(String issuer, String clientId, TokenVerifier idTokens) {
        this(issuer, clientId, idTokens, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    /** As above, checking an https identity provider against {@code sslContext} (the JDK's roots and any private CA). */
    public OidcLogin(String issuer, String clientId, TokenVerifier idTokens, SSLContext sslContext) {
        this(issuer, clientId, idTokens, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .sslContext(sslContext).build());
    }

    private OidcLogin(String issuer, String clientId, TokenVerifier idTokens, HttpClient http) {
        this.issuer = issuer;
        this.provider = new OidcProvider(issuer, http);
        this.clientId = clientId;
        this.idTokens = idTokens;
    }

    /**
     * The issuer's origin ({@code scheme://host[:port]}), where its logout endpoint is taken to be (so for Keycloak,
     * Entra ID, Okta, Auth0); empty for an issuer that is no absolute http(s) URL.
     */
    public Optional<String> issuerOrigin() {
        try {
            java.net.URI u = java.net.URI.create(issuer);
            if (u.getHost() == null || !("https".equals(u.getScheme()) || "http".equals(u.getScheme()))) {
                return Optional.empty();
            }
            return Optional.of(u.getScheme() + "://" + u.getRawAuthority().replaceAll("^.*@", ""));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Where the browser goes to sign in. */
    public String authorizationUrl(PendingLogin login, String redirectUri) {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("response_type", "code");
        q.put("client_id", clientId);
        q.put("redirect_uri", redirectUri);
        q.put("scope", "openid");
        q.put("state", login.state());
        q.put("nonce", login.nonce());
        q.put("code_challenge", challenge(login.codeVerifier()));
        q.put("code_challenge_method", "S256");
        return provider.endpoint("authorization_endpoint") + "?" + OidcProvider.form(q);
    }

    /**
     * What the token endpoint handed out: the access token (verified by the REST authenticator) and, when the
     * provider issues them, the refresh token the session re-validates with and the ID token that names the session
     * at the provider's logout ({@code id_token_hint}). None is ever shown or logged.
     */
    public record Tokens(String accessToken, Optional<String> refreshToken, Optional<String> idToken) {
        @Override
        public String toString() {
            return "Tokens[access=****, refresh=" + (refreshToken.isPresent() ? "****" : "none") + ", id="
                    + (idToken.isPresent() ? "****" : "none") + "]";
        }
    }

    /** The identity provider refused a refresh token: the user was disabled, or the session revoked or expired. */
    public static final class RefreshRefused extends Exception {
        RefreshRefused(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * Redeems {@code code}; returns the tokens once the ID token has been checked.
     *
     * @throws DomainException {@code login_failed} when the provider refuses the
     *         code or the ID token does not match this sign-in
     */
    public Tokens redeem(String code, PendingLogin login, String redirectUri) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("grant_type", "authorization_code");
        f.put("code", code);
        f.put("redirect_uri", redirectUri);
        f.put("client_id", clientId);
        f.put("code_verifier", login.codeVerifier());
        HttpResponse<String> res = provider.postForm("token_endpoint", f);
        JsonNode tokens = OidcProvider.parse(res.body());
        if (res.statusCode() != 200 || !tokens.hasNonNull("access_token") || !tokens.hasNonNull("id_token")) {
            throw ConsoleErrors.LOGIN_FAILED.error("the identity provider refused the sign-in ("
                    + tokens.path("error").asText("HTTP " + res.statusCode()) + "); sign in again");
        }
        JWTClaimsSet id;
        try {
            id = idTokens.verify(tokens.get("id_token").asText());
        } catch (TokenVerifier.InvalidTokenException e) {
            throw ConsoleErrors.LOGIN_FAILED.error("the ID token was refused: " + e.getMessage());
        }
        if (!login.nonce().equals(id.getClaim("nonce"))) {
            throw ConsoleErrors.LOGIN_FAILED.error("the ID token does not belong to this sign-in (nonce mismatch)");
        }
        return tokens(tokens);
    }

    /**
     * Redeems {@code refreshToken} at the token endpoint for fresh tokens: the provider checks again that the user
     * is enabled and the session alive, and the new access token carries the user's current claims.
     *
     * @throws RefreshRefused the provider refused the refresh token (HTTP 400 or 401, e.g. {@code invalid_grant})
     * @throws DomainException {@code identity_provider_unavailable} when it cannot say
     */
    public Tokens refresh(String refreshToken) throws RefreshRefused {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("grant_type", "refresh_token");
        f.put("refresh_token", refreshToken);
        f.put("client_id", clientId);
        HttpResponse<String> res = provider.postForm("token_endpoint", f);
        if (res.statusCode() == 400 || res.statusCode() == 401) {
            JsonNode error = res.body().isBlank() ? JsonMapping.mapper().createObjectNode() : OidcProvider.parse(res.body());
            throw new RefreshRefused(error.path("error").asText("HTTP " + res.statusCode()));
        }
        JsonNode tokens = OidcProvider.parse(res.body());
        if (res.statusCode() != 200 || !tokens.hasNonNull("access_token")) {
            throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error("the identity provider answered a refresh with HTTP "
                    + res.statusCode());
        }
        return tokens(tokens);
    }

    /**
     * Where the browser goes to end its session at the identity provider too (OpenID Connect RP-Initiated Logout 1.0):
     * the provider's {@code end_session_endpoint} with the session's ID token as {@code id_token_hint} (so the
     * provider ends that session without asking) and this client's id. Empty when the provider has no such endpoint
     * or cannot be asked now (the console session is closed all the same).
     */
    public Optional<String> logoutUrl(String idTokenHint) {
        Optional<String> endpoint;
        try {
            endpoint = provider.optionalEndpoint("end_session_endpoint");
        } catch (DomainException unavailable) {
            return Optional.empty();
        }
        return endpoint.map(e -> {
            Map<String, String> q = new LinkedHashMap<>();
            q.put("id_token_hint", idTokenHint);
            q.put("client_id", clientId);
            return e + (e.contains("?") ? "&" : "?") + OidcProvider.form(q);
        });
    }

    private static Tokens tokens(JsonNode tokens) {
        return new Tokens(tokens.get("access_token").asText(), text(tokens, "refresh_token"), text(tokens, "id_token"));
    }

    private static Optional<String> text(JsonNode tokens, String field) {
        return Optional.ofNullable(tokens.get(field)).filter(JsonNode::isTextual).map(JsonNode::asText)
                .filter(t -> !t.isEmpty());
    }

    static String challenge(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
