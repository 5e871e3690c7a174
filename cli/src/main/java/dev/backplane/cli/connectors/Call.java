package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Envelopes;
import dev.backplane.cli.common.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc operation call} */
@Command(name = "call", description = "Call an operation through the backplane's pipeline.",
        exitCodeListHeading = ExitCodes.HELP_HEADING, exitCodeList = {ExitCodes.HELP_OK, ExitCodes.HELP_FAILED,
                ExitCodes.HELP_USAGE, ExitCodes.HELP_DENIED, ExitCodes.HELP_PARKED, ExitCodes.HELP_UNREACHABLE,
                ExitCodes.HELP_NOT_LOGGED_IN})
final class Call extends OperationRequestCommand {
    @Option(names = "--preview-hash", description = "hash from svc operation preview (required for dangerous operations)")
    String previewHash;
    @Option(names = "--work-ref", description = "external change-ticket reference")
    String workRef;

    @Override
    protected void execute(Session s) {
        OperationRequest body = new OperationRequest(connectorId, opId, target, parsed, previewHash, workRef);
        JsonNode env = s.client().call("POST", ApiPaths.OPERATIONS_CALL, body).json();
        Envelopes.finish(ctx, env, opId, options.json(), result -> ctx.out().println(result.toPrettyString()));
    }
}
