package dev.backplane.cli;

import dev.backplane.cli.auth.TokenStore;
import dev.backplane.cli.auth.TokenStores;
import dev.backplane.cli.common.CliConfig;
import dev.backplane.cli.common.Commands;
import dev.backplane.cli.common.Contexts;
import dev.backplane.cli.common.GlobalOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code svc logout}: forget the stored tokens of a context (or of a backplane named by URL). */
@Command(name = "logout", description = "Forget the stored login of the current context (or --context, or a "
        + "backplane named by --backplane); the context itself stays (svc context delete removes it).")
final class LogoutCommand extends CliCommand {

    @Spec CommandSpec spec;

    @Option(names = "--backplane", paramLabel = "<url>", description = "backplane (default: the current context's)")

    String backplane;

    @Override
    public void run() {
        GlobalOptions global = Commands.global(spec);
        CliConfig config = CliConfig.load(global.configFile(ctx));
        Contexts.Chosen chosen = Contexts.choose(ctx, global, config, backplane, null);
        TokenStore store = TokenStores.select(ctx);
        store.delete(chosen.identity());
        ctx.out().println("Logged out of " + chosen.backplane() + chosen.context().map(c -> " (context " + c + ")")
                .orElse(""));
    }
}
