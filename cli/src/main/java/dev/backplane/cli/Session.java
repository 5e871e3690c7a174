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
import dev.backplane.cli.common.Contexts;
import dev.backplane.cli.common.GlobalOptions;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.ResolveOverrides;
import dev.backplane.cli.common.Urls;
import java.net.URI;
import java.util.Optional;

/**
 * Everything a command that talks to the backplane needs, resolved once: which backplane and as whom (a flag, the
 * environment or a context; see {@link Contexts}), how to reach it, and a client that carries the caller's token.
 *
 * @param context  the context in use; empty when the backplane was named by URL
 * @param identity the key the tokens are stored under
 * @param tenant   the tenant acted on when not the caller's own
 */
public record Session(CliContext ctx, CliConfig config, URI backplane, Optional<String> context, String identity,
                      Optional<String> tenant, Http http, TokenStore tokenStore, BackplaneClient client)
        implements AutoCloseable {

    public static Session open(CliContext ctx, GlobalOptions global, BackplaneOptions options) {
        CliConfig config = CliConfig.load(global.configFile(ctx));
        Contexts.Chosen chosen = Contexts.choose(ctx, global, config, options.backplane(), options.tenant());
        String normalized = chosen.backplane();
        Optional<CliConfig.Backplane> known = config.backplane(normalized);
        boolean allowHttp = known.map(CliConfig.Backplane::insecureAllowHttp).orElse(false)
                || ctx.env("SVC_INSECURE_ALLOW_HTTP").isPresent();
        URI base = Urls.checkedBase(normalized, "backplane URL", allowHttp);
        known.ifPresent(k -> ResolveOverrides.install(k.resolve().stream().map(ResolveOverrides::parse).toList()));
        Optional<String> tenant = chosen.tenant().filter(t -> !t.trim().equals("current")).map(Contexts::checkedTenant);
        Http http = new Http(null, ctx.err(), global.verbose());
        TokenStore store = TokenStores.select(ctx);
        AccessTokens tokens = new AccessTokens(ctx, store, http);
        return new Session(ctx, config, base, chosen.context(), chosen.identity(), tenant, http, store,
                new BackplaneClient(base, http, () -> tokens.forIdentity(chosen.identity(), chosen.loginHint()), tenant,
                        ApiLevels.of(ctx)));
    }

    @Override
    public void close() {
        http.close();
    }
}
