package dev.backplane.cli.contexts;

import dev.backplane.cli.common.CliConfig;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Commands;
import dev.backplane.cli.common.Contexts;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.OutputOptions;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code svc context show [<name>]}. */
@Command(name = "show", description = "Show a context (default: the one a command would use).")
final class ContextShow extends ContextVerb {

    @Parameters(index = "0", arity = "0..1", paramLabel = "<name>", description = "the context (default: current)")
    String name;

    @Mixin OutputOptions output;

    @Override
    public void run() {
        CliConfig config = config();
        String which = name != null ? name : Contexts.named(ctx, Commands.global(spec), config).or(config::currentName)
                .orElseThrow(() -> new CliException(ExitCodes.NOT_LOGGED_IN,
                        "no current context: svc login <backplane-url> makes one"));
        CliConfig.Context c = existing(config, which);
        boolean current = which.equals(config.currentName().orElse(null));
        if (output.json()) {
            output.print(ctx.out(), json(which, c, current));
            return;
        }
        row("name", which + (current ? "  (current)" : ""));
        row("backplane", c.backplane());
        row("tenant", Objects.requireNonNullElse(c.tenant(), "(your own)"));
        row("output", Objects.requireNonNullElse(c.output(), "table"));
        row("login", c.identity().equals(c.backplane()) ? "the backplane's (svc login " + c.backplane() + ")"
                : "its own (svc login " + c.backplane() + " --context " + which + ")");
    }

    private void row(String key, String value) {
        ctx.out().printf("%-10s %s%n", key, value);
    }
}
