package dev.backplane.cli.targets;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code svc targets delete} [tenant_admin] */
@Command(name = "delete", description = "Delete a target [tenant_admin].")
final class Delete extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name-or-alias>") String name;
    @Mixin ConfirmOption confirm;

    @Override
    protected void validate() {
        confirm.require("delete " + name + ": the target and its aliases are removed");
    }

    @Override
    protected void execute(Session s) {
        send(s, "DELETE", ApiPaths.expand(ApiPaths.TARGET, name), null, r -> ctx.out().println("deleted target "
                + name));
    }
}
