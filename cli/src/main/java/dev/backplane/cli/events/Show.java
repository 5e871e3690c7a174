package dev.backplane.cli.events;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc events show} */
@Command(name = "show", description = "One event with its envelope and the raw body as sent.")
final class Show extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<event-id>") String id;

    @Override
    protected void validate() {
        try {
            java.util.UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("<event-id> must be a uuid");
        }
    }

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.EVENT, id), e -> ctx.out().println(e.toPrettyString()));
    }
}
