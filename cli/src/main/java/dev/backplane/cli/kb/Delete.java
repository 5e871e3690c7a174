package dev.backplane.cli.kb;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmedDelete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc kb delete} */
@Command(name = "delete", description = "Delete an entry [tenant_admin]. REST and CLI only: no agent tool deletes.")
final class Delete extends ConfirmedDelete {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;

    Delete() {
        super("kb entry", ApiPaths.KB_ENTRY, "it cannot be restored");
    }
}
