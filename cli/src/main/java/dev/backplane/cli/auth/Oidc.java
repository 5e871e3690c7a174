package dev.backplane.cli.auth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Http;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/** The OIDC exchanges of the CLI: discovery, the device-code flow (RFC 8628) and refresh. */
public final class Oidc {

    /** Endpoints from the issuer's discovery document. */
    public record Endpoints(String issuer, URI deviceAuthorization, URI token) {
    }

    /** What the user must do to approve a device login. */
    public record DeviceCode(String deviceCode, String userCode, String verificationUri,
                             String verificationUriComplete, Duration expiresIn, Duration interval, String codeVerifier) {
        @Override
        public String toString() {
            return "DeviceCode[userCode=" + userCode + ", verificationUri=" + verificationUri + "]";
        }
    }

    private final Http http;

    public Oidc(Http http) {
        this.http = http;
    }

    public Endpoints discover(URI issuer) {
        URI doc = URI.create(issuer.toString().replaceAll("/+$", "") + "/.well-known/openid-configuration");
        Http.Response r = http.get(doc);
        if (!r.ok()) {
            throw CliException.failed("the identity provider did not serve " + doc + " (HTTP " + r.status() + ")");
        }
        JsonNode d = r.json();
        String device = d.path("device_authorization_endpoint").asText("");
        String token = d.path("token_endpoint").asText("");
        if (device.isEmpty()) {
            throw CliException.failed("the identity provider at " + issuer + " does not offer the device-code flow");
        }
        return new Endpoints(d.path("issuer").asText(issuer.toString()), URI.create(device), URI.create(token));
    }

    /**
     * Starts a device login. It always carries a PKCE challenge (S256): clients such as the MCP client
     * require it, and the identity provider ignores it for those that do not.
     */
    public DeviceCode startDeviceLogin(Endpoints endpoints, String clientId, String scope) {
        byte[] random = new byte[32];
        new java.security.SecureRandom().nextBytes(random);
        String verifier = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        String challenge;
        try {
            challenge = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                    java.security.MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(
                            java.nio.charset.StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Http.Response r = http.postForm(endpoints.deviceAuthorization(), Map.of("client_id", clientId, "scope", scope,
                "code_challenge", challenge, "code_challenge_method", "S256"));
        JsonNode j = r.json();
        if (!r.ok()) {
            String error = j.path("error").asText("");
            String desc = j.path("error_description").asText("");
            if (error.equals("invalid_scope") && scope.contains("offline_access")) {
                throw offlineNotProvisioned(clientId);
            }
            if (error.equals("unauthorized_client") || error.equals("invalid_client")) {
                throw CliException.failed("client '" + clientId + "' may not use the device-code flow (" + error
                        + (desc.isEmpty() ? "" : ": " + desc) + "); has `svc admin idp bootstrap-clients` been run?");
            }
            throw CliException.failed("device login could not start: " + error + (desc.isEmpty() ? "" : ": " + desc));
        }
        long interval = Math.max(1, j.path("interval").asLong(5));
        return new DeviceCode(j.path("device_code").asText(), j.path("user_code").asText(),
                j.path("verification_uri").asText(), j.path("verification_uri_complete").asText(""),
                Duration.ofSeconds(j.path("expires_in").asLong(600)), Duration.ofSeconds(interval), verifier);
    }

    /** Polls until the user approves, denies or the code expires. */
    public Tokens awaitDeviceLogin(Endpoints endpoints, String clientId, DeviceCode code, Consumer<Duration> sleeper) {
        Instant deadline = Instant.now().plus(code.expiresIn());
        Duration interval = code.interval();
        while (Instant.now().isBefore(deadline)) {
            sleeper.accept(interval);
            Map<String, String> form = new LinkedHashMap<>();
            form.put("grant_type", "urn:ietf:params:oauth:grant-type:device_code");
            form.put("device_code", code.deviceCode());
            form.put("client_id", clientId);
            form.put("code_verifier", code.codeVerifier());
            Http.Response r = http.postForm(endpoints.token(), form);
            JsonNode j = r.json();
            if (r.ok()) {
                return tokens(j, endpoints.token().toString(), clientId, null);
            }
            switch (j.path("error").asText("")) {
                case "authorization_pending" -> { }
                case "slow_down" -> interval = interval.plusSeconds(5);
                case "access_denied" -> throw CliException.failed("the login was denied in the browser");
                case "expired_token" -> throw CliException.failed("the login code expired; run svc login again");
                default -> throw CliException.failed("login failed: " + j.path("error").asText("HTTP " + r.status())
                        + " " + j.path("error_description").asText(""));
            }
        }
        throw CliException.failed("the login code expired before it was approved; run svc login again");
    }

    /**
     * A token for a confidential client's service account (OAuth 2.0 client credentials, RFC 6749 §4.4): a machine's
     * login (a CI job). The secret is sent in the form, over TLS to the issuer, and kept in the returned tokens so that
     * the next one can be minted when this expires (client-credentials tokens come without a refresh token).
     */
    public Tokens clientCredentials(URI tokenEndpoint, String clientId, String secret, String scope) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        form.put("client_id", clientId);
        form.put("client_secret", secret);
        if (scope != null && !scope.isBlank()) {
            form.put("scope", scope);
        }
        Http.Response r = http.postForm(tokenEndpoint, form);
        JsonNode j = r.json();
        if (!r.ok()) {
            String error = j.path("error").asText("HTTP " + r.status());
            throw new CliException(error.equals("unauthorized_client") || error.equals("invalid_client")
                    ? ExitCodes.NOT_LOGGED_IN : ExitCodes.FAILED, "the identity provider refused client '" + clientId
                    + "': " + error + (j.path("error_description").asText("").isEmpty() ? ""
                    : " (" + j.path("error_description").asText() + ")")
                    + "; check the client id and its secret (SVC_CLIENT_SECRET or stdin), and that the client is "
                    + "confidential with service accounts enabled");
        }
        Tokens t = tokens(j, tokenEndpoint.toString(), clientId, null);
        return new Tokens(t.accessToken(), "", t.expiresAt(), t.tokenEndpoint(), clientId, t.scope(), false, secret);
    }

    /** Exchanges the refresh token for fresh tokens. */
    public Tokens refresh(Tokens current) {
        if (current.refreshToken() == null || current.refreshToken().isEmpty()) {
            throw sessionExpired();
        }
        Http.Response r = http.postForm(URI.create(current.tokenEndpoint()), Map.of(
                "grant_type", "refresh_token",
                "refresh_token", current.refreshToken(),
                "client_id", current.clientId()));
        JsonNode j = r.json();
        if (!r.ok()) {
            throw sessionExpired();
        }
        return tokens(j, current.tokenEndpoint(), current.clientId(), current);
    }

    private static Tokens tokens(JsonNode j, String tokenEndpoint, String clientId, Tokens previous) {
        String refresh = j.path("refresh_token").asText(previous == null ? "" : previous.refreshToken());
        String scope = j.path("scope").asText(previous == null ? "" : previous.scope());
        return new Tokens(j.path("access_token").asText(), refresh,
                Instant.now().plusSeconds(j.path("expires_in").asLong(60)), tokenEndpoint, clientId, scope,
                isOffline(refresh, scope));
    }

    /** An offline token is marked by Keycloak as {@code typ: Offline}; otherwise the granted scope tells. */
    static boolean isOffline(String refreshToken, String scope) {
        if (scope != null && java.util.Arrays.asList(scope.split(" ")).contains("offline_access")) {
            return true;
        }
        String[] parts = refreshToken == null ? new String[0] : refreshToken.split("\\.");
        if (parts.length == 3) {
            try {
                JsonNode claims = Http.JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
                return "Offline".equals(claims.path("typ").asText());
            } catch (Exception e) {
                return false;
            }
        }
        return false;
    }

    static CliException offlineNotProvisioned(String clientId) {
        return new OfflineNotProvisioned("offline access is not enabled for client '" + clientId + "'; the deployer "
                + "must run `svc admin idp bootstrap-clients --cli-offline-access` first");
    }

    /** The identity provider refused the {@code offline_access} scope: the client is not provisioned for it. */
    public static final class OfflineNotProvisioned extends CliException {
        OfflineNotProvisioned(String message) {
            super(ExitCodes.FAILED, message);
        }
    }

    /**
     * When a stored refresh token stops working if unused, read from its {@code exp} claim (not verified: only shown),
     * or empty when it has none or is not a JWT.
     */
    public static java.util.Optional<Instant> refreshExpiry(Tokens tokens) {
        String[] parts = tokens.refreshToken() == null ? new String[0] : tokens.refreshToken().split("\\.");
        if (parts.length != 3) {
            return java.util.Optional.empty();
        }
        try {
            JsonNode exp = Http.JSON.readTree(Base64.getUrlDecoder().decode(parts[1])).path("exp");
            return exp.isNumber() && exp.asLong() > 0 ? java.util.Optional.of(Instant.ofEpochSecond(exp.asLong()))
                    : java.util.Optional.empty();
        } catch (Exception e) {
            return java.util.Optional.empty();
        }
    }

    static CliException sessionExpired() {
        return new CliException(ExitCodes.NOT_LOGGED_IN, "your session has expired; run svc login again");
    }
}
