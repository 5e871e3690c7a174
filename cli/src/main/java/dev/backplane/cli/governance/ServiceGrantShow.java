package dev.backplane.cli.governance;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc service-principals grants show} */
@Command(name = "show", description = "One service grant.")
final class ServiceGrantShow extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<grant-id>") String id;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.SERVICE_GRANTS + "/{id}", id), g -> ServicePrincipalsCommand.print(ctx, g));
    }
}
