package dev.backplane.cli.broadcast;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc broadcast overrides remove} */
@Command(name = "remove", description = "Remove an override [tenant_admin].")
final class OverrideRemove extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<override-id>") String id;

    @Override
    protected void execute(Session s) {
        send(s, "DELETE", ApiPaths.expand(ApiPaths.BROADCAST_OVERRIDE, id), null, o ->
                ctx.out().println("removed override " + id + " (" + o.path("op_id_pattern").asText() + ")"));
    }
}
