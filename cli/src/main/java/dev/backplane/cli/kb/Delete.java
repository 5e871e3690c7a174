package dev.backplane.cli.kb;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code svc kb delete} */
@Command(name = "delete", description = "Delete an entry [tenant_admin]. REST and CLI only: no agent tool deletes.")
final class Delete extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Mixin ConfirmOption confirm;

    @Override
    protected void validate() {
        confirm.require("delete kb entry " + slug + ": it cannot be restored");
    }

    @Override
    protected void execute(Session s) {
        send(s, "DELETE", ApiPaths.expand(ApiPaths.KB_ENTRY, slug), null, r -> ctx.out().println("deleted kb entry "
                + slug));
    }
}
