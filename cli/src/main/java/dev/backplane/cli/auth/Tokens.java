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
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Tokens(@JsonProperty("access_token") String accessToken,
                     @JsonProperty("refresh_token") String refreshToken,
                     @JsonProperty("expires_at") Instant expiresAt,
                     @JsonProperty("token_endpoint") String tokenEndpoint,
                     @JsonProperty("client_id") String clientId,
                     @JsonProperty("scope") String scope,
                     @JsonProperty("offline") boolean offline) {

    public boolean expiresWithin(java.time.Duration margin) {
        return expiresAt == null || Instant.now().plus(margin).isAfter(expiresAt);
    }

    @Override
    public String toString() {
        return "Tokens[client=" + clientId + ", scope=" + scope + ", offline=" + offline + ", expiresAt=" + expiresAt
                + ", tokens=****]";
    }
}
