package dev.backplane.cli.events;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code svc event-source delete} */
@Command(name = "delete", description = "Delete a source [tenant_admin]; its URL then answers 404.")
final class Delete extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug-or-name>") String slug;
    @Mixin ConfirmOption confirm;

    @Override
    protected void validate() {
        confirm.require("deleting event source " + slug + " makes its senders' deliveries fail");
    }

    @Override
    protected void execute(Session s) {
        send(s, "DELETE", ApiPaths.expand(ApiPaths.EVENT_SOURCE, slug), null,
                e -> ctx.out().println("deleted event source " + slug));
    }
}
