package dev.backplane.cli.contexts;

import dev.backplane.cli.auth.TokenStores;
import dev.backplane.cli.common.CliConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc context delete <name>}. */
@Command(name = "delete", aliases = "rm", description = "Delete a context and forget its login (unless another "
        + "context uses the same login).")
final class ContextDelete extends ContextVerb {

    @Parameters(index = "0", paramLabel = "<name>", description = "the context") String name;

    @Override
    public void run() {
        CliConfig config = config();
        CliConfig.Context c = existing(config, name);
        boolean shared = config.identityShared(name, c.identity());
        boolean wasCurrent = name.equals(config.currentName().orElse(null));
        config.remove(name);
        config.save(file());
        if (!shared) {
            TokenStores.select(ctx).delete(c.identity());
        }
        ctx.out().println("Deleted context " + name + (shared ? "" : " and its login")
                + (wasCurrent ? "; no context is current now (svc context use <name>)" : ""));
    }
}
