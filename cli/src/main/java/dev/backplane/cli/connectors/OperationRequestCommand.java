package dev.backplane.cli.connectors;

import static dev.backplane.cli.connectors.OperationCalls.params;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.common.CliException;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The arguments call and preview share: connector, operation, target and params. */
abstract class OperationRequestCommand extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<connector_id>") String connectorId;
    @Parameters(index = "1", paramLabel = "<op_id>") String opId;
    @Option(names = "--target", description = "target name or alias") String target;
    @Option(names = "--params", description = "params as inline JSON or @file") String params;

    Map<String, Object> parsed;

    @Override
    protected void validate() {
        parsed = params(params);
        if (target == null) {
            throw CliException.usage("--target is required");
        }
    }
}
