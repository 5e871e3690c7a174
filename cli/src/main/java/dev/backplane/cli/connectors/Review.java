package dev.backplane.cli.connectors;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc connector review} */
@Command(name = "review", description = "Show a connector's groups and operations with their review state.")
final class Review extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<connector_id>") String id;

    Review() {
        super("GET " + ApiPaths.CONNECTOR, ConnectorCommand::printReview);
    }
}
