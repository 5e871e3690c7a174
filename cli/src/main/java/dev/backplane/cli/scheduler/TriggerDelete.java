package dev.backplane.cli.scheduler;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code svc scheduler delete} */
@Command(name = "delete", description = "Delete a trigger [tenant_admin]; runs it started stay.")
final class TriggerDelete extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<trigger-id>") String id;
    @Mixin ConfirmOption confirm;

    @Override
    protected void validate() {
        confirm.require("deleting trigger " + id);
    }

    @Override
    protected void execute(Session s) {
        send(s, "DELETE", ApiPaths.expand(ApiPaths.TRIGGER, id), null, t -> ctx.out().println("deleted trigger " + id));
    }
}
