package dev.backplane.cli.auth;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * Tokens of one login. {@code toString()} never shows a token.
 *
 * @param accessToken the bearer token sent to the backplane
 * @param refreshToken refreshes the access token (an offline token when {@code offline})
 * @param expiresAt when the access token expires
 * @param tokenEndpoint where refreshes go
 * @param clientId the public client the tokens belong to
 * @param scope the scopes granted
 * @param offline whether the refresh token is an offline token
 * @param clientSecret the confidential client's secret of a client-credentials login ({@code svc login
 *                     --client-credentials}), kept with the tokens so that the CLI mints the next token itself; null
 *                     for a person's login
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Tokens(@JsonProperty("access_token") String accessToken,
                     @JsonProperty("refresh_token") String refreshToken,
                     @JsonProperty("expires_at") Instant expiresAt,
                     @JsonProperty("token_endpoint") String tokenEndpoint,
                     @JsonProperty("client_id") String clientId,
                     @JsonProperty("scope") String scope,
                     @JsonProperty("offline") boolean offline,
                     @JsonProperty("client_secret") String clientSecret) {

    /** A person's login: no client secret. */
    public Tokens(String accessToken, String refreshToken, Instant expiresAt, String tokenEndpoint, String clientId,
                  String scope, boolean offline) {
        this(accessToken, refreshToken, expiresAt, tokenEndpoint, clientId, scope, offline, null);
    }

    /** Whether these come from a client-credentials login (a machine: the CLI mints the next token itself). */
    public boolean clientCredentials() {
        return clientSecret != null && !clientSecret.isEmpty();
    }

    public boolean expiresWithin(java.time.Duration margin) {
        return expiresAt == null || Instant.now().plus(margin).isAfter(expiresAt);
    }

    @Override
    public String toString() {
        return "Tokens[client=" + clientId + ", scope=" + scope + ", offline=" + offline + ", expiresAt=" + expiresAt
                + ", tokens=****" + (clientCredentials() ? ", client secret=****" : "") + "]";
    }
}
