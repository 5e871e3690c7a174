package dev.backplane.cli.runbooks;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc runbook publish-template} */
@Command(name = "publish-template", description = "Publish the draft [tenant_admin]; runs start from it from now on.")
final class PublishTemplate extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.RUNBOOK_TEMPLATE, slug) + "/publish", null, t -> {
            ctx.out().print("published: ");
            RunbookCommand.printTemplate(ctx, t);
        });
    }
}
