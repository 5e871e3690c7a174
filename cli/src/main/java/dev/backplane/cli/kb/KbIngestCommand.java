package dev.backplane.cli.kb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.JobPoller;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.Tables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code svc kb ingest <directory>}: the backplane reads a directory on its own host (inside the
 * tenant's folder {@code <kb.ingest-root>/<tenant-id>}); a real run is a background job this command
 * polls, showing progress on standard error. Exits 1 when a file could not be ingested (the others are).
 */
@Command(name = "ingest", description = {
        "Ingest the Markdown and text files below a directory ON THE BACKPLANE HOST [tenant_admin].",
        "The directory must lie inside this tenant's folder of the backplane's kb.ingest-root, "
                + "<kb.ingest-root>/<tenant-id>/ (a relative path is taken from there; another tenant's folder "
                + "is never read). "
                + "Slugs come from the relative paths, metadata from front matter plus source. Re-ingest updates "
                + "in place; unchanged bodies are not embedded again."})
final class KbIngestCommand extends BackplaneCommand {

    /** Waits for the ingest job, polling every half second. */
    static final JobPoller POLLER = new JobPoller(ApiPaths.KB_INGEST_JOB, Duration.ofMillis(500),
            job -> progressLine(job.path("progress")),
            jobId -> "interrupted; the ingest goes on on the backplane (job " + jobId + ")");

    @Parameters(index = "0", paramLabel = "<directory>",
            description = "on the backplane host, inside <kb.ingest-root>/<tenant-id>/")

    String directory;
    @Option(names = "--dry-run", description = "list what would be created, updated or unchanged; write nothing")
    boolean dryRun;

    /** The body of POST /api/v1/kb/ingest. */
    @RequestBody
    record IngestRequest(String directory, boolean dryRun) {
    }

    @Override
    protected void execute(Session s) {
        JsonNode r = s.client().call("POST", ApiPaths.KB_INGEST, new IngestRequest(directory, dryRun)).json();
        if (!dryRun) {
            ctx.err().println("kb ingest job " + r.path("job_id").asText() + " reading " + r.path("directory").asText());
            r = POLLER.await(s.client(), ctx.err(), r.path("job_id").asText(), r);
        }
        JsonNode done = r;
        print(done, () -> render(done));
        if (done.path("status").asText().equals("failed")) {
            throw CliException.failed("kb ingest failed: " + done.path("error").asText());
        }
        long errors = done.path("progress").path("errors").asLong();
        if (errors > 0) {
            throw CliException.failed(errors + " file(s) could not be ingested" + (dryRun ? " (dry run)" : "")
                    + "; see the error column");
        }
    }

    static String progressLine(JsonNode p) {
        return "ingest: " + p.path("done").asLong() + "/" + p.path("total").asLong() + " files (" + counts(p) + ")";
    }

    static String counts(JsonNode p) {
        return "created " + p.path("created").asLong() + ", updated " + p.path("updated").asLong() + ", unchanged "
                + p.path("unchanged").asLong() + ", errors " + p.path("errors").asLong();
    }

    private void render(JsonNode r) {
        if (r.path("dry_run").asBoolean()) {
            ctx.out().println("dry run: nothing written; outcomes are what an ingest would do");
        }
        ctx.out().println("directory " + r.path("directory").asText() + " (on the backplane host)");
        List<List<String>> rows = new ArrayList<>();
        long hidden = 0;
        for (JsonNode f : r.path("files")) {
            if (!r.path("dry_run").asBoolean() && f.path("outcome").asText().equals("unchanged")) {
                hidden++;
                continue;
            }
            rows.add(List.of(f.path("path").asText(), f.path("slug").asText(), f.path("outcome").asText(),
                    f.path("error").asText("")));
        }
        if (!rows.isEmpty()) {
            Tables.print(ctx, List.of("FILE", "SLUG", "OUTCOME", "ERROR"), rows);
        }
        if (hidden > 0) {
            ctx.out().println(hidden + " unchanged file(s) not listed (--json lists every file)");
        }
        ctx.out().println((r.path("dry_run").asBoolean() ? "would be: " : "done: ") + counts(r.path("progress")));
    }
}
