package dev.backplane.kernel.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.backplane.kernel.identity.TokenVerifier;
import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The console's side of the OIDC authorization-code flow with PKCE (S256) against the issuer the
 * kernel trusts: builds the authorization URL, redeems the code at the token endpoint, and checks the
 * ID token (signature, issuer, audience = the console client, nonce). The access token it returns is
 * then verified by the REST authenticator, so a console user is the same caller as on REST.
 */
public final class OidcLogin {

    private final String issuer;
    private final String clientId;
    private final TokenVerifier idTokens;
    private final HttpClient http;
    private volatile JsonNode discovery;

    /**
     * @param issuer the trusted issuer (its discovery document names the endpoints)
     * @param clientId the console's public client ({@code svc-console})
     * @param idTokens verifies ID tokens for audience {@code clientId}
     */
    public OidcLogin(String issuer, String clientId, TokenVerifier idTokens) {
        this(issuer, clientId, idTokens, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    /** As above, checking an https identity provider against {@code sslContext} (the JDK's roots and any private CA). */
    public OidcLogin(String issuer, String clientId, TokenVerifier idTokens, javax.net.ssl.SSLContext sslContext) {
        this(issuer, clientId, idTokens, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .sslContext(sslContext).build());
    }

    private OidcLogin(String issuer, String clientId, TokenVerifier idTokens, HttpClient http) {
        this.http = http;
        this.issuer = issuer.replaceAll("/+$", "");
        this.clientId = clientId;
        this.idTokens = idTokens;
    }

    /** Where the browser goes to sign in. */
    public String authorizationUrl(ConsoleSessions.PendingLogin login, String redirectUri) {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("response_type", "code");
        q.put("client_id", clientId);
        q.put("redirect_uri", redirectUri);
        q.put("scope", "openid");
        q.put("state", login.state());
        q.put("nonce", login.nonce());
        q.put("code_challenge", challenge(login.codeVerifier()));
        q.put("code_challenge_method", "S256");
        return endpoint("authorization_endpoint") + "?" + form(q);
    }

    /**
     * What the token endpoint handed out: the access token (verified by the REST authenticator) and, when the
     * provider issues one, the refresh token the session re-validates with. Neither is ever shown or logged.
     */
    public record Tokens(String accessToken, java.util.Optional<String> refreshToken) {
        @Override
        public String toString() {
            return "Tokens[access=****, refresh=" + (refreshToken.isPresent() ? "****" : "none") + "]";
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
     * @throws dev.backplane.kernel.errors.DomainException {@code login_failed} when the provider refuses the
     *         code or the ID token does not match this sign-in
     */
    public Tokens redeem(String code, ConsoleSessions.PendingLogin login, String redirectUri) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("grant_type", "authorization_code");
        f.put("code", code);
        f.put("redirect_uri", redirectUri);
        f.put("client_id", clientId);
        f.put("code_verifier", login.codeVerifier());
        HttpResponse<String> res = send(HttpRequest.newBuilder(URI.create(endpoint("token_endpoint")))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(f))).build());
        JsonNode tokens = parse(res.body());
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
     * @throws dev.backplane.kernel.errors.DomainException {@code identity_provider_unavailable} when it cannot say
     */
    public Tokens refresh(String refreshToken) throws RefreshRefused {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("grant_type", "refresh_token");
        f.put("refresh_token", refreshToken);
        f.put("client_id", clientId);
        HttpResponse<String> res = send(HttpRequest.newBuilder(URI.create(endpoint("token_endpoint")))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(f))).build());
        if (res.statusCode() == 400 || res.statusCode() == 401) {
            JsonNode error = res.body().isBlank() ? JsonMapping.mapper().createObjectNode() : parse(res.body());
            throw new RefreshRefused(error.path("error").asText("HTTP " + res.statusCode()));
        }
        JsonNode tokens = parse(res.body());
        if (res.statusCode() != 200 || !tokens.hasNonNull("access_token")) {
            throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error("the identity provider answered a refresh with HTTP "
                    + res.statusCode());
        }
        return tokens(tokens);
    }

    private static Tokens tokens(JsonNode tokens) {
        return new Tokens(tokens.get("access_token").asText(), java.util.Optional.ofNullable(tokens.get("refresh_token"))
                .filter(JsonNode::isTextual).map(JsonNode::asText).filter(t -> !t.isEmpty()));
    }

    private String endpoint(String name) {
        JsonNode d = discovery;
        if (d == null) {
            String url = issuer + "/.well-known/openid-configuration";
            HttpResponse<String> res = send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build());
            if (res.statusCode() != 200) {
                throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error(url + " answered HTTP " + res.statusCode());
            }
            d = parse(res.body());
            discovery = d;
        }
        String value = d.path(name).asText("");
        if (value.isEmpty()) {
            throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error("the issuer's discovery document has no " + name);
        }
        return value;
    }

    private HttpResponse<String> send(HttpRequest req) {
        try {
            return http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error("the identity provider is unreachable: "
                    + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error("interrupted calling the identity provider");
        }
    }

    private static JsonNode parse(String body) {
        try {
            return JsonMapping.mapper().readTree(body);
        } catch (IOException e) {
            throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error("the identity provider answered something not JSON");
        }
    }

    static String challenge(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String form(Map<String, String> values) {
        return values.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }
}
