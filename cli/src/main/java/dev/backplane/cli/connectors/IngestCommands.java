package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.JobPoller;
import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.Tables;
import java.time.Duration;
import java.util.List;

/** {@code svc connector ingest} and {@code svc connector ingest-status}: vendor API specs become connectors. */
final class IngestCommands {

    /** How many classification notes the human answer lists; --json has up to 200. */
    private static final int NOTES_SHOWN = 20;

    /** Waits for a background ingest, polling every 2 s. */
    static final JobPoller POLLER = new JobPoller(ApiPaths.INGEST_JOB, Duration.ofSeconds(2),
            job -> "  " + job.path("status").asText() + " " + progress(job.path("progress")),
            jobId -> "interrupted; the job goes on: svc connector ingest-status " + jobId);

    private IngestCommands() {
    }

    static void failIfFailed(JsonNode job) {
        if (job.path("status").asText().equals("failed")) {
            throw CliException.failed(job.path("error").path("error_code").asText("ingest_failed") + ": "
                    + job.path("error").path("message").asText());
        }
    }

    static String progress(JsonNode p) {
        if (p == null || p.isMissingNode() || p.isNull()) {
            return "";
        }
        int total = p.path("total").asInt();
        return p.path("stage").asText() + (total > 0 ? " " + p.path("done").asInt() + "/" + total : "");
    }

    static void printResult(CliContext ctx, JsonNode r) {
        String id = r.path("connector_id").asText();
        JsonNode safety = r.path("safety_counts");
        String counts = r.path("operation_count").asInt() + " operations in " + r.path("group_count").asInt()
                + " groups (safe " + safety.path("safe").asInt() + ", caution " + safety.path("caution").asInt()
                + ", dangerous " + safety.path("dangerous").asInt() + "; " + r.path("read_operation_count").asInt()
                + " read-class)";
        if (r.path("dry_run").asBoolean()) {
            ctx.out().println("dry run: would " + (r.path("created").asBoolean() ? "create" : "replace") + " " + id
                    + " (" + r.path("scope").asText() + "): " + counts + "; nothing was written");
        } else {
            ctx.out().println((r.path("created").asBoolean() ? "ingested " : "re-ingested ") + id + " ("
                    + r.path("scope").asText() + "): " + counts + "; status staged, every operation default-deny");
        }
        for (JsonNode spec : r.path("specs")) {
            ctx.out().println("  spec " + spec.path("location").asText() + ": " + spec.path("format").asText() + " '"
                    + spec.path("title").asText() + "' info.version " + spec.path("info_version").asText());
        }
        StringBuilder settings = new StringBuilder();
        r.path("auth").path("settings").properties().forEach(s -> settings.append(' ').append(s.getKey()).append('=')
                .append(s.getValue().asText()));
        ctx.out().println("  base path " + (r.path("base_path").asText().isEmpty() ? "/" : r.path("base_path").asText())
                + ", auth " + r.path("auth").path("scheme").asText() + " " + r.path("auth").path("secret_fields")
                + settings);
        switch (r.path("search_vectors").asText()) {
            case "ready" -> ctx.out().println("  search: operation embeddings ready ("
                    + r.path("search_vectors_ms").asLong() + " ms); searches are hybrid");
            case "deferred", "failed" -> ctx.out().println("  search: operation embeddings "
                    + r.path("search_vectors").asText() + "; searches rank by words only until the first search "
                    + "has computed them");
            default -> { } // a dry run
        }
        List<List<String>> rows = Tables.rows(r.path("groups"), g -> List.of(g.path("group_key").asText(),
                String.valueOf(g.path("operation_count").asInt()),
                    g.path("display_name").asText()));
        Tables.print(ctx, List.of("GROUP", "OPS", "NAME"), rows);
        for (JsonNode rule : r.path("classification_rules")) {
            ctx.out().println("  rule " + rule.path("rule").asInt() + " set " + rule.path("set") + " on "
                    + rule.path("op_ids").size() + " operation(s): " + String.join(", ", Json.texts(rule.path("op_ids")))
                    + " — " + rule.path("reason").asText());
        }
        JsonNode notes = r.path("classification_notes");
        if (notes.path("count").asInt() > 0) {
            ctx.out().println(notes.path("count").asInt() + " operation(s) classed by more than their HTTP method "
                    + "(svc connector review shows every operation's reason):");
            int shown = 0;
            for (JsonNode n : notes.path("operations")) {
                if (shown++ == NOTES_SHOWN) {
                    break;
                }
                ctx.out().println("  " + n.path("op_id").asText() + "  " + n.path("op_class").asText() + ", "
                        + n.path("safety_level").asText() + (n.path("requires_approval").asBoolean() ? ", approval" : "")
                        + " — " + n.path("reason").asText());
            }
            if (notes.path("count").asInt() > NOTES_SHOWN) {
                ctx.out().println("  ... and " + (notes.path("count").asInt() - NOTES_SHOWN) + " more (--json)");
            }
        }
        int warnings = r.path("warnings").size();
        if (warnings > 0) {
            ctx.out().println(warnings + " warning(s) (see --json), first: " + r.path("warnings").get(0).asText());
        }
        for (JsonNode step : r.path("next_steps")) {
            ctx.out().println("next: " + step.asText());
        }
    }
}
