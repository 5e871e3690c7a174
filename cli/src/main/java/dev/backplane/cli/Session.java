package dev.backplane.cli;

import dev.backplane.cli.auth.AccessTokens;
import dev.backplane.cli.auth.TokenStore;
import dev.backplane.cli.auth.TokenStores;
import dev.backplane.cli.common.ApiLevels;
import dev.backplane.cli.common.BackplaneClient;
import dev.backplane.cli.common.BackplaneOptions;
import dev.backplane.cli.common.CliConfig;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.GlobalOptions;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.ResolveOverrides;
import dev.backplane.cli.common.Urls;
import java.net.URI;
import java.util.Optional;
import java.util.UUID;

/**
 * Everything a command that talks to the backplane needs, resolved once: which backplane (flag or
 * latest login), how to reach it, and a client that carries the caller's token.
 */
public record Session(CliContext ctx, CliConfig config, URI backplane, Http http, TokenStore tokenStore,
                      BackplaneClient client) implements AutoCloseable {

    public static Session open(CliContext ctx, GlobalOptions global, BackplaneOptions options) {
        CliConfig config = CliConfig.load(global.configFile(ctx));
        String url = Optional.ofNullable(options.backplane()).or(() -> ctx.env("SVC_BACKPLANE")).or(config::latest)
                .orElseThrow(() -> new CliException(ExitCodes.NOT_LOGGED_IN,
                        "no backplane chosen: run svc login <backplane-url> first, or pass --backplane"));
        String normalized = url.trim().replaceAll("/+$", "");
        Optional<CliConfig.Backplane> known = config.backplane(normalized);
        boolean allowHttp = known.map(CliConfig.Backplane::insecureAllowHttp).orElse(false)
                || ctx.env("SVC_INSECURE_ALLOW_HTTP").isPresent();
        URI base = Urls.checkedBase(normalized, "backplane URL", allowHttp);
        known.ifPresent(k -> ResolveOverrides.install(k.resolve().stream().map(ResolveOverrides::parse).toList()));
        Optional<String> tenant = Optional.ofNullable(options.tenant()).filter(t -> !t.trim().equals("current"))
                .map(Session::checkedTenant);
        Http http = new Http(null, ctx.err(), global.verbose());
        TokenStore store = TokenStores.select(ctx);
        AccessTokens tokens = new AccessTokens(ctx, store, http);
        return new Session(ctx, config, base, http, store,
                new BackplaneClient(base, http, () -> tokens.forBackplane(base.toString()), tenant, ApiLevels.of(ctx)));
    }

    private static String checkedTenant(String t) {
        try {
            return UUID.fromString(t.trim()).toString();
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--tenant must be a tenant uuid, got '" + t + "'");
        }
    }

    @Override
    public void close() {
        http.close();
    }
}
