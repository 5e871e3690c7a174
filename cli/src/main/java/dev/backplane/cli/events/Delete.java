package dev.backplane.cli.events;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmedDelete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc event-source delete} */
@Command(name = "delete", description = "Delete a source [tenant_admin]; its URL then answers 404.")
final class Delete extends ConfirmedDelete {
    @Parameters(index = "0", paramLabel = "<slug-or-name>") String slug;

    Delete() {
        super("event source", ApiPaths.EVENT_SOURCE, "its senders' deliveries then fail");
    }
}
