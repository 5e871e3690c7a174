package dev.backplane.cli.retrieval;

import static dev.backplane.cli.retrieval.RetrievalCommand.checkSurface;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc retrieval usage} */
@Command(name = "usage", description = {"Recorded searches per surface (REST and MCP): counts, zero-hit "
        + "searches, principals, active days, latency.",
        "Your own searches by default; with --tenant <uuid|current> everyone's in the tenant [tenant_admin]."})
final class Usage extends BackplaneCommand {
    @Option(names = "--since", description = "30m, 24h, 7d, 2w or ISO 8601 (default 30d)") String since;
    @Option(names = "--surface", paramLabel = "kb|memory|operations|conventions|all", description = "default all")
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
            List<List<String>> rows = Tables.rows(r.path("surfaces"), x -> List.of(x.path("surface").asText(),
                    x.path("searches").asText(),
                        x.path("zero_hit_searches").asText(), x.path("distinct_principals").asText(),
                        x.path("active_days").asText(), x.path("mcp_searches").asText() + "/"
                        + x.path("rest_searches").asText(), x.path("p50_latency_ms").asText("-") + "/"
                        + x.path("p95_latency_ms").asText("-"), x.path("last_search_at").asText("-")));
            Tables.print(ctx, List.of("SURFACE", "SEARCHES", "ZERO-HIT", "PRINCIPALS", "ACTIVE DAYS",
                    "MCP/REST", "P50/P95 MS", "LAST"), rows);
            if (r.has("principals") && !r.path("principals").isEmpty()) {
                List<List<String>> p = new ArrayList<>();
                r.path("principals").forEach(x -> p.add(List.of(x.path("principal").asText(),
                        x.path("principal_kind").asText(), x.path("surface").asText(), x.path("searches").asText(),
                        x.path("last_search_at").asText())));
                ctx.out().println();
                Tables.print(ctx, List.of("PRINCIPAL", "KIND", "SURFACE", "SEARCHES", "LAST"), p);
            }
        });
    }
}
