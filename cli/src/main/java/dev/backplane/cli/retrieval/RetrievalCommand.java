package dev.backplane.cli.retrieval;

import dev.backplane.cli.common.RequestBody;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc retrieval}: retrieval-quality tooling — eval against grep, the retire checklist, usage. */
@Command(name = "retrieval", description = "Retrieval quality: eval against a grep baseline, retire checklist, usage.",
        subcommands = {RetrievalCommand.Eval.class, RetrievalCommand.RetireChecklist.class, RetrievalCommand.Usage.class})
public final class RetrievalCommand {

    static final List<String> SURFACES = List.of("kb", "memory", "operations", "all");

    private RetrievalCommand() {
    }

    static void checkSurface(String surface) {
        if (surface != null && !SURFACES.contains(surface)) {
            throw CliException.usage("--surface must be one of " + SURFACES + ", got '" + surface + "'");
        }
    }

    /** eval */
    @Command(name = "eval", description = {
            "Measure each surface's search against grep over the same corpus and labelled queries (recall@10, MRR, "
                    + "nDCG@10).",
            "Labelled queries: kb metadata eval_queries (a|b|c), memory tags eval:<query>, and otherwise each entry's "
                    + "title or first sentence; operations: each operation's description."})
    static final class Eval extends BackplaneCommand {
        @Option(names = "--surface", paramLabel = "kb|memory|operations|all", description = "default all")
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
            Tables.print(ctx.out(), List.of("SURFACE", "ENGINE", "QUERIES", "RECALL@10 (vs grep)", "MRR (vs grep)",
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

    /** retire-checklist */
    @Command(name = "retire-checklist", description = "Per surface: what must hold before grep (or the catalog's "
            + "lexical search) can be retired, each item pass or fail with evidence.")
    static final class RetireChecklist extends BackplaneCommand {
        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.RETRIEVAL_RETIRE_CHECKLIST, r -> {
                for (JsonNode x : r.path("surfaces")) {
                    ctx.out().println(x.path("surface").asText() + ": " + (x.path("ready").asBoolean() ? "READY"
                            : "NOT READY"));
                    for (JsonNode i : x.path("items")) {
                        ctx.out().println("  [" + (i.path("pass").asBoolean() ? "pass" : "FAIL") + "] "
                                + i.path("item").asText() + ": " + i.path("evidence").asText());
                    }
                }
                ctx.out().println("overall: " + (r.path("ready").asBoolean() ? "READY to retire grep"
                        : "NOT READY (every surface must pass every item)"));
            });
        }
    }

    /** usage */
    @Command(name = "usage", description = {"Recorded searches per surface (REST and MCP): counts, zero-hit "
            + "searches, principals, active days, latency.",
            "Your own searches by default; with --tenant <uuid|current> everyone's in the tenant [tenant_admin]."})
    static final class Usage extends BackplaneCommand {
        @Option(names = "--since", description = "30m, 24h, 7d, 2w or ISO 8601 (default 30d)")
        String since;
        @Option(names = "--surface", paramLabel = "kb|memory|operations|all", description = "default all")
        String surface;

        @Override
        protected void validate() {
            checkSurface(surface);
        }

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.RETRIEVAL_USAGE + QueryString.of().add("since", since)
                    .add("surface", surface).add("view", options.tenant() != null ? "tenant" : null), r -> {
                ctx.out().println((r.path("view").asText().equals("tenant") ? "tenant " + r.path("tenant_id").asText()
                        : "your searches (" + r.path("principal").asText() + ")") + " since " + r.path("since").asText());
                List<List<String>> rows = Tables.rows(r.path("surfaces"), x -> List.of(x.path("surface").asText(), x.path("searches").asText(),
                            x.path("zero_hit_searches").asText(), x.path("distinct_principals").asText(),
                            x.path("active_days").asText(), x.path("mcp_searches").asText() + "/"
                            + x.path("rest_searches").asText(), x.path("p50_latency_ms").asText("-") + "/"
                            + x.path("p95_latency_ms").asText("-"), x.path("last_search_at").asText("-")));
                Tables.print(ctx.out(), List.of("SURFACE", "SEARCHES", "ZERO-HIT", "PRINCIPALS", "ACTIVE DAYS",
                        "MCP/REST", "P50/P95 MS", "LAST"), rows);
                if (r.has("principals") && !r.path("principals").isEmpty()) {
                    List<List<String>> p = new ArrayList<>();
                    r.path("principals").forEach(x -> p.add(List.of(x.path("principal").asText(),
                            x.path("principal_kind").asText(), x.path("surface").asText(), x.path("searches").asText(),
                            x.path("last_search_at").asText())));
                    ctx.out().println();
                    Tables.print(ctx.out(), List.of("PRINCIPAL", "KIND", "SURFACE", "SEARCHES", "LAST"), p);
                }
            });
        }
    }
}
