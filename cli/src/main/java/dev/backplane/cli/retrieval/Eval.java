package dev.backplane.cli.retrieval;

import static dev.backplane.cli.retrieval.RetrievalCommand.checkSurface;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc retrieval eval} */
@Command(name = "eval", description = {
        "Measure each surface's search against grep over the same corpus and labelled queries (recall@10, MRR, "
                + "nDCG@10).",
        "Labelled queries: kb metadata eval_queries (a|b|c), memory tags eval:<query>, and otherwise each entry's "
                + "title or first sentence; operations: each operation's description; conventions: body lines "
                + "eval: <query>, else the title."})
final class Eval extends BackplaneCommand {
    @Option(names = "--surface", paramLabel = "kb|memory|operations|conventions|all", description = "default all")
    String surface;
    @Option(names = "--baseline", paramLabel = "grep", description = "what to compare with (only grep)")
    String baseline = "grep";
    @Option(names = "--save-baseline", description = "save this run as the tenant's baseline [tenant_admin]")
    boolean save;
    @Option(names = "--compare-baseline", description = "compare with the saved baseline; exit 1 on a regression")
    boolean compare;

    /** The body of POST /api/v1/retrieval/eval. */
    @RequestBody
    record EvalRequest(String surface, String baseline, boolean saveBaseline, boolean compareBaseline) {
    }

    @Override
    protected void validate() {
        checkSurface(surface);
        if (!baseline.equals("grep")) {
            throw CliException.usage("--baseline: the only baseline is grep");
        }
    }

    @Override
    protected void execute(Session s) {
        EvalRequest req = new EvalRequest(surface == null ? "all" : surface, baseline, save, compare);
        String status = send(s, "POST", ApiPaths.RETRIEVAL_EVAL, req, this::render).path("compare_status").asText("");
        if (compare && !status.equals("ok")) {
            throw CliException.failed(status.equals("no_baseline") ? "no saved baseline to compare with; run svc "
                    + "retrieval eval --save-baseline first" : "retrieval quality regressed against the saved baseline");
        }
    }

    private void render(JsonNode r) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode x : r.path("surfaces")) {
            JsonNode e = x.path("engine_metrics");
            JsonNode g = x.path("grep_metrics");
            rows.add(List.of(x.path("surface").asText(), x.path("engine").asText(), x.path("queries").asText() + " ("
                    + x.path("curated_queries").asText() + " curated)", pair(e, g, "recall_at_10"), pair(e, g, "mrr"),
                    pair(e, g, "ndcg_at_10"), x.path("beats_baseline").asBoolean() ? "yes" : "no"));
        }
        Tables.print(ctx, List.of("SURFACE", "ENGINE", "QUERIES", "RECALL@10 (vs grep)", "MRR (vs grep)",
                "NDCG@10 (vs grep)", "BEATS GREP"), rows);
        for (JsonNode x : r.path("surfaces")) {
            if (!x.path("note").isNull() && !x.path("note").isMissingNode()) {
                ctx.out().println(x.path("surface").asText() + ": " + x.path("note").asText());
            }
            JsonNode c = x.path("comparison");
            if (!c.isMissingNode()) {
                ctx.out().println(x.path("surface").asText() + " vs saved baseline: " + c.path("status").asText()
                        + (c.has("deltas") ? " " + c.path("deltas") + " (saved " + c.path("baseline_saved_at").asText()
                        + (c.path("eval_set_changed").asBoolean() ? "; the labelled queries changed since" : "") + ")"
                        : ""));
            }
            if (x.path("saved_as_baseline").asBoolean()) {
                ctx.out().println(x.path("surface").asText() + ": saved as the tenant's baseline");
            }
        }
    }

    private static String pair(JsonNode e, JsonNode g, String metric) {
        return String.format(Locale.ROOT, "%.3f / %.3f", e.path(metric).asDouble(), g.path(metric).asDouble());
    }
}
