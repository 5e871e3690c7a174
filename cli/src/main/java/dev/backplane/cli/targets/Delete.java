package dev.backplane.cli.targets;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmedDelete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc targets delete} [tenant_admin] */
@Command(name = "delete", description = "Delete a target [tenant_admin].")
final class Delete extends ConfirmedDelete {
    @Parameters(index = "0", paramLabel = "<name-or-alias>") String name;

    Delete() {
        super("target", ApiPaths.TARGET, "the target and its aliases are removed");
    }
}
