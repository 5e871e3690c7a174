package dev.backplane.cli.conventions;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code svc conventions delete} */
@Command(name = "delete", description = "Delete a convention and its version history [tenant_admin]; the audit "
        + "trail keeps every write.")
final class ConventionDelete extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Mixin ConfirmOption confirm;

    @Override
    protected void validate() {
        confirm.require("delete convention " + slug + " and its history: it cannot be restored");
    }

    @Override
    protected void execute(Session s) {
        send(s, "DELETE", ApiPaths.expand(ApiPaths.CONVENTION, slug), null, r -> ctx.out().println("deleted convention "
                + slug));
    }
}
