package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.Credential;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Applies one session's auth scheme to its requests: the headers each request carries, and for the
 * token-minting schemes the cached token (obtained on first use, dropped when the vendor refuses it).
 */
final class Authenticator {

    private final AuthConfig config;
    private final SessionStore store;
    private final Credential credential;
    private final SessionLogin login;
    private final Scrubber scrubber;
    private final Clock clock;
    private final System.Logger log;
    private final List<String> keyParts;
    private String cacheKey;

    /**
     * @param keyParts where the session goes (origin, base path): with the credential values, hashed into the cache key
     */
    Authenticator(AuthConfig config, SessionStore store, Credential credential, SessionLogin login, Scrubber scrubber,
                  Clock clock, System.Logger log, List<String> keyParts) {
        this.config = requireNonNull(config, "config is null");
        this.store = requireNonNull(store, "store is null");
        this.credential = requireNonNull(credential, "credential is null");
        this.login = requireNonNull(login, "login is null");
        this.scrubber = requireNonNull(scrubber, "scrubber is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.log = requireNonNull(log, "log is null");
        this.keyParts = List.copyOf(keyParts);
    }

    /**
     * The auth headers for the next request, logging in first when a minting scheme has no usable token.
     *
     * @throws dev.backplane.plugin.api.ConnectorException {@code connector_auth_failed} when the login is refused;
     *     {@code connector_error} when the credential lacks a field the scheme reads
     */
    Applied apply() {
        return switch (config.scheme()) {
            case "none" -> new Applied(Map.of(), Optional.empty(), false);
            case "basic" -> {
                String user = credential.field(config.fields().get(0));
                String password = credential.field(config.fields().get(1));
                String header = SessionLogin.basic(user, password);
                scrubber.add(header.substring("Basic ".length()));
                yield new Applied(Map.of(AuthConfig.AUTHORIZATION, header), Optional.empty(), false);
            }
            case "static_header" -> new Applied(Map.of(config.tokenHeader(),
                    config.tokenPrefix() + credential.field(config.fields().get(0))), Optional.empty(), false);
            default -> minted();
        };
    }

    private Applied minted() {
        SessionStore.Lease lease = store.lease(cacheKey(), clock, () -> {
            log.log(Level.DEBUG, () -> "openapi: obtaining a " + config.scheme() + " token for " + keyParts.getFirst());
            return login.login();
        });
        scrubber.add(lease.token().value());
        return new Applied(Map.of(config.tokenHeader(), config.tokenPrefix() + lease.token().value()),
                Optional.of(lease.token()), lease.reused());
    }

    /** The vendor refused {@code applied} (HTTP 401): forget its token so the next request logs in again. */
    void refused(Applied applied) {
        applied.token().ifPresent(t -> {
            log.log(Level.INFO, () -> "openapi: " + keyParts.getFirst() + " refused the cached " + config.scheme()
                    + " token; it is dropped");
            store.drop(cacheKey(), t);
        });
    }

    /** SHA-256 of origin, base path, scheme and the credential values the scheme reads; never the values themselves. */
    private String cacheKey() {
        if (cacheKey == null) {
            List<String> parts = new ArrayList<>(keyParts);
            parts.add(config.scheme());
            for (String field : config.fields()) {
                parts.add(field);
                parts.add(credential.field(field));
            }
            cacheKey = SessionStore.key(parts);
        }
        return cacheKey;
    }

    /**
     * Adds the credential's secret values to the scrubber, so nothing the vendor echoes leaks them.
     * The identity half of a pair — the user name of basic and the user logins, the client id of
     * oauth2_mint — is not a secret and stays readable (a user listing must show the admin's name).
     */
    static void registerSecrets(AuthConfig config, Credential credential, Scrubber scrubber) {
        String identity = switch (config.scheme()) {
            case "basic", "session_login", "session_login_basic", "oauth2_mint" -> config.fields().getFirst();
            default -> null;
        };
        for (String name : credential.names()) {
            if (!name.equals(identity)) {
                scrubber.add(credential.field(name));
            }
        }
    }

    /**
     * Auth applied to one request.
     *
     * @param headers headers to set (secret: never shown)
     * @param token the minted token used, if any
     * @param reused whether that token came from the cache
     */
    record Applied(Map<String, String> headers, Optional<SessionToken> token, boolean reused) {
        Applied {
            headers = Map.copyOf(requireNonNull(headers, "headers is null"));
            requireNonNull(token, "token is null");
        }

        @Override
        public String toString() {
            return "Applied[headers=" + headers.keySet() + " (values redacted), reused=" + reused + "]";
        }
    }
}
