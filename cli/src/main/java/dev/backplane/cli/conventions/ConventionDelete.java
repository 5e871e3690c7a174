package dev.backplane.cli.conventions;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmedDelete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc conventions delete} */
@Command(name = "delete", description = "Delete a convention and its version history [tenant_admin]; the audit "
        + "trail keeps every write.")
final class ConventionDelete extends ConfirmedDelete {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;

    ConventionDelete() {
        super("convention", ApiPaths.CONVENTION, "it and its history cannot be restored");
    }
}
