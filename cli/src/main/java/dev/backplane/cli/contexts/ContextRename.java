package dev.backplane.cli.contexts;

import dev.backplane.cli.common.CliConfig;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Contexts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc context rename <old> <new>}. */
@Command(name = "rename", description = "Rename a context; its login, tenant and output stay.")
final class ContextRename extends ContextVerb {

    @Parameters(index = "0", paramLabel = "<old>", description = "the context") String from;

    @Parameters(index = "1", paramLabel = "<new>", description = "its new name") String to;

    @Override
    public void run() {
        Contexts.checkName(to);
        CliConfig config = config();
        existing(config, from);
        if (config.context(to).isPresent()) {
            throw CliException.usage("there is a context '" + to + "' already");
        }
        config.rename(from, to);
        config.save(file());
        ctx.out().println("Renamed context " + from + " to " + to);
    }
}
