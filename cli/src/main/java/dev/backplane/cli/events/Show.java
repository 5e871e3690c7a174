package dev.backplane.cli.events;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc events show} */
@Command(name = "show", description = "One event with its envelope and the raw body as sent.")
final class Show extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<event-id>") String id;

    Show() {
        super("GET " + ApiPaths.EVENT, (ctx, e) -> ctx.out().println(e.toPrettyString()));
    }

    @Override
    protected void validate() {
        try {
            java.util.UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("<event-id> must be a uuid");
        }
    }
}
