package dev.backplane.cli;

import dev.backplane.cli.auth.TokenStore;
import dev.backplane.cli.auth.TokenStores;
import dev.backplane.cli.common.CliConfig;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Commands;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code svc logout}: forget the stored tokens of a backplane. */
@Command(name = "logout", description = "Forget the stored login of a backplane.")
final class LogoutCommand extends CliCommand {

    @Spec CommandSpec spec;

    @Option(names = "--backplane", paramLabel = "<url>", description = "backplane (default: the latest login)")

    String backplane;

    @Override
    public void run() {
        CliConfig config = CliConfig.load(Commands.global(spec).configFile(ctx));
        String url = backplane != null ? backplane.replaceAll("/+$", "")
                : config.latest().orElseThrow(() -> CliException.failed("not logged in anywhere"));
        TokenStore store = TokenStores.select(ctx);
        store.delete(url);
        ctx.out().println("Logged out of " + url);
    }
}
