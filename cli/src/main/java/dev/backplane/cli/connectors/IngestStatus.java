package dev.backplane.cli.connectors;

import static dev.backplane.cli.connectors.IngestCommands.POLLER;
import static dev.backplane.cli.connectors.IngestCommands.failIfFailed;
import static dev.backplane.cli.connectors.IngestCommands.printResult;
import static dev.backplane.cli.connectors.IngestCommands.progress;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Uuids;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc connector ingest-status} */
@Command(name = "ingest-status", description = "Show a background ingest job; --wait polls every 2 s until it ends.")
final class IngestStatus extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<job-id>") String jobId;
    @Option(names = "--wait", description = "poll every 2 s until the job ends, showing progress") boolean await;

    @Override
    protected void validate() {
        Uuids.checked(jobId, "<job-id>");
    }

    @Override
    protected void execute(Session s) {
        JsonNode job = await ? POLLER.await(s.client(), ctx.err(), jobId, null)
                : s.client().get(ApiPaths.expand(ApiPaths.INGEST_JOB, jobId)).json();
        print(job, () -> {
            ctx.out().println("job " + jobId + "  " + job.path("status").asText() + "  " + job.path("connector_id")
                    .asText() + "  " + progress(job.path("progress")));
            if (job.path("status").asText().equals("succeeded")) {
                printResult(ctx, job.path("result"));
            }
        });
        failIfFailed(job);
    }
}
