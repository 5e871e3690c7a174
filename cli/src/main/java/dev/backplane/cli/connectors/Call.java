package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Envelopes;
import dev.backplane.cli.common.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc operation call} */
@Command(name = "call", description = "Call an operation through the backplane's pipeline: waits for the result "
        + "envelope, or with --async prints the run handle (svc operation run-status <handle>).",
        exitCodeListHeading = ExitCodes.HELP_HEADING, exitCodeList = {ExitCodes.HELP_OK, ExitCodes.HELP_FAILED,
                ExitCodes.HELP_USAGE, ExitCodes.HELP_DENIED, ExitCodes.HELP_PARKED, ExitCodes.HELP_UNREACHABLE,
                ExitCodes.HELP_NOT_LOGGED_IN})
public final class Call extends OperationRequestCommand {

    /**
     * How long a synchronous call (or the approval that releases one) is waited for: the backplane bounds
     * every call itself, and a composite operation (such as Argo CD's sync and wait, up to 30 minutes by
     * default) takes longer than an ordinary request; longer ones run with --async.
     */
    public static final java.time.Duration LONGEST_CALL = java.time.Duration.ofMinutes(31);
    @Option(names = "--preview-hash", description = "hash from svc operation preview (required for dangerous operations)")
    String previewHash;
    @Option(names = "--work-ref", description = "external change-ticket reference") String workRef;
    @Option(names = "--async", description = "start it in the background and print the run handle") boolean async;

    @Override
    protected void execute(Session s) {
        OperationRequest body = new OperationRequest(connectorId, opId, target, parsed, previewHash, workRef,
                async ? true : null);
        if (async) {
            JsonNode run = s.client().call("POST", ApiPaths.OPERATIONS_CALL, body).json();
            if (options.json()) {
                options.output().print(ctx.out(), run);
            } else {
                ctx.out().println(run.path("handle").asText());
                ctx.err().println("started: svc operation run-status " + run.path("handle").asText()
                        + " (run-cancel to stop it)");
            }
            return;
        }
        JsonNode env = s.client().call("POST", ApiPaths.OPERATIONS_CALL, body, LONGEST_CALL).json();
        Envelopes.finish(ctx, env, opId, options.format(), result -> ctx.out().println(result.toPrettyString()));
    }
}
