package dev.backplane.cli.auth;

import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Http;
import java.time.Duration;
import java.util.Optional;

/**
 * Supplies the bearer token for a backplane: {@code SVC_TOKEN} when set (automation), otherwise the
 * stored login, refreshed when it is about to expire.
 */
public final class AccessTokens {

    static final Duration REFRESH_MARGIN = Duration.ofSeconds(30);

    private final CliContext ctx;
    private final TokenStore store;
    private final Http http;

    public AccessTokens(CliContext ctx, TokenStore store, Http http) {
        this.ctx = ctx;
        this.store = store;
        this.http = http;
    }

    /**
     * The token of the login stored under {@code identity} (a backplane URL, or URL#context for a context named at
     * login); {@code loginHint} is the command that logs it in again.
     */
    public String forIdentity(String identity, String loginHint) {
        Optional<String> fromEnv = ctx.env("SVC_TOKEN");
        if (fromEnv.isPresent()) {
            return fromEnv.get();
        }
        Tokens tokens = store.load(identity).orElseThrow(() -> new CliException(ExitCodes.NOT_LOGGED_IN,
                "not logged in to " + identity.replace("#", " as context ") + "; run " + loginHint));
        if (tokens.expiresWithin(REFRESH_MARGIN)) {
            tokens = refresh(identity, tokens);
        }
        return tokens.accessToken();
    }

    /**
     * Refreshes and stores; the old tokens are dropped when the refresh token is no longer good. A client-credentials
     * login mints a new token with the client's secret: {@code SVC_CLIENT_SECRET} when set (a rotated secret), else
     * the one kept at login.
     */
    public Tokens refresh(String identity, Tokens tokens) {
        try {
            Tokens fresh = tokens.clientCredentials()
                    ? new Oidc(http).clientCredentials(java.net.URI.create(tokens.tokenEndpoint()), tokens.clientId(),
                            ctx.env("SVC_CLIENT_SECRET").filter(v -> !v.isBlank()).orElse(tokens.clientSecret()),
                            tokens.scope())
                    : new Oidc(http).refresh(tokens);
            store.save(identity, fresh);
            return fresh;
        } catch (CliException e) {
            if (e.exitCode() == ExitCodes.NOT_LOGGED_IN) {
                store.delete(identity);
            }
            throw e;
        }
    }
}
