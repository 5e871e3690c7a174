package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc operation run-status <handle>} */
@Command(name = "run-status", description = "One asynchronous call (svc operation call --async): status, and its "
        + "result envelope once finished.")
final class RunStatus extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<handle>") String handle;

    RunStatus() {
        super("GET " + ApiPaths.OPERATION_RUN, RunStatus::print);
    }

    static void print(CliContext ctx, JsonNode run) {
        ctx.out().println(run.path("handle").asText() + "  " + run.path("connector_id").asText() + " "
                + run.path("op_id").asText() + "  target " + run.path("target").asText() + "  "
                + run.path("status").asText() + (run.hasNonNull("work_ref") ? "  work_ref " + run.path("work_ref").asText()
                : ""));
        ctx.out().println("  started " + run.path("created_at").asText()
                + (run.hasNonNull("finished_at") ? ", finished " + run.path("finished_at").asText() : ""));
        JsonNode env = run.path("result");
        if (env.isObject()) {
            JsonNode extras = env.path("extras");
            if (env.path("status").asText().equals("ok")) {
                ctx.out().println("  result: " + env.path("result"));
            } else if (env.path("status").asText().equals("awaiting_approval")) {
                ctx.out().println("  parked for approval: request " + extras.path("approval_request_id").asText());
            } else {
                ctx.out().println("  " + env.path("status").asText() + " (" + extras.path("error_code").asText() + "): "
                        + env.path("error").asText());
            }
        }
    }
}
