package dev.backplane.cli.contexts;

import dev.backplane.cli.common.CliConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc context use <name>}. */
@Command(name = "use", description = "Make a context the current one (what commands use without --context).")
final class ContextUse extends ContextVerb {

    @Parameters(index = "0", paramLabel = "<name>", description = "the context") String name;

    @Override
    public void run() {
        CliConfig config = config();
        CliConfig.Context c = existing(config, name);
        config.use(name);
        config.save(file());
        ctx.out().println("Using context " + name + " (" + c.backplane() + ")");
    }
}
