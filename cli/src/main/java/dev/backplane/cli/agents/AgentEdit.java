package dev.backplane.cli.agents;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc agent edit}: a partial change; what is not given stays. */
@Command(name = "edit", description = "Change an agent definition [tenant_admin]; only the options given change.")
final class AgentEdit extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name>") String name;
    @ArgGroup(exclusive = true) State state;
    @Mixin AgentFields fields;

    static final class State {
        @Option(names = "--enabled", required = true, description = "runs may start") boolean enabled;
        @Option(names = "--disabled", required = true, description = "runs are refused") boolean disabled;
    }

    @Override
    protected void execute(Session s) {
        AgentWrite body = fields.body(null, state == null ? null : state.enabled);
        if (body.equals(new AgentWrite(null, null, null, null, null, null, null, null))) {
            throw CliException.usage("nothing to change: give --enabled/--disabled, --identity-ref, --model-tier, "
                    + "--system-prompt, --toolset, --output-schema or --turn-budget");
        }
        send(s, "PATCH", ApiPaths.expand(ApiPaths.AGENT, name), body, a -> {
            ctx.out().println("updated agent definition:");
            AgentFields.print(ctx, a);
        });
    }
}
