package dev.backplane.cli.connectors;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc connector review} */
@Command(name = "review", description = "Show a connector's groups and operations with their review state and why each "
        + "operation has its class and safety.")
final class Review extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<connector_id>") String id;

    @Option(names = "--group", paramLabel = "<group_key>", description = "Only this group and its operations.")
    String group;

    Review() {
        super("GET " + ApiPaths.CONNECTOR, ConnectorCommand::printReview);
    }

    @Override
    protected String query() {
        return QueryString.of().add("group", group).toString();
    }
}
