package dev.backplane.cli.contexts;

import dev.backplane.cli.common.CliConfig;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Contexts;
import dev.backplane.cli.common.OutputFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc context set [<name>] --tenant ... --output ...}. */
@Command(name = "set", description = "Set a context's default tenant or output (default: the current context).")
final class ContextSet extends ContextVerb {

    @Parameters(index = "0", arity = "0..1", paramLabel = "<name>", description = "the context (default: current)")
    String name;

    @Option(names = "--tenant", paramLabel = "<uuid>",
            description = "the tenant commands act on (platform_admin); 'current' for your own")
    String tenant;

    @Option(names = {"-o", "--output"}, paramLabel = "<format>",
            description = "the output commands print: table, wide, json, yaml or jsonpath=<expr>; 'table' resets it")
    String output;

    @Override
    public void run() {
        if (tenant == null && output == null) {
            throw CliException.usage("nothing to set: pass --tenant or --output");
        }
        CliConfig config = config();
        String which = name != null ? name : config.currentName()
                .orElseThrow(() -> CliException.usage("no current context: name one"));
        CliConfig.Context c = existing(config, which);
        if (tenant != null) {
            c = c.withTenant(tenant.trim().equals("current") ? null : Contexts.checkedTenant(tenant));
        }
        if (output != null) {
            try {
                OutputFormat format = OutputFormat.parse(output);
                c = c.withOutput(format.equals(OutputFormat.TABLE) ? null : format.label());
            } catch (IllegalArgumentException e) {
                throw CliException.usage("--output: " + e.getMessage());
            }
        }
        config.putContext(which, c);
        config.save(file());
        ctx.out().println("Context " + which + ": tenant " + (c.tenant() == null ? "(your own)" : c.tenant())
                + ", output " + (c.output() == null ? "table" : c.output()));
    }
}
