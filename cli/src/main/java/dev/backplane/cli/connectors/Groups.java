package dev.backplane.cli.connectors;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc operation groups} */
@Command(name = "groups", description = "A connector's operation groups.")
final class Groups extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<connector_id>") String id;

    Groups() {
        super("GET " + ApiPaths.CONNECTOR_GROUPS, OperationCommand::printGroups);
    }
}
