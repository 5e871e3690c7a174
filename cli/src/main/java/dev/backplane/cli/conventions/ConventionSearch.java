package dev.backplane.cli.conventions;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc conventions search} */
@Command(name = "search", description = "Search workflow and reference conventions by meaning and words (hybrid).")
final class ConventionSearch extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<query>") String query;
    @Option(names = "--kind", paramLabel = "<kind>", description = "workflow or reference") String kind;
    @Option(names = "--limit", paramLabel = "1..50", description = "maximum hits (default 10)") Integer limit;

    /** The body of POST /api/v1/conventions/search. */
    @RequestBody
    record Query(String query, String kind, Integer limit) {
    }

    @Override
    protected void validate() {
        if (kind != null && !kind.matches("workflow|reference")) {
            throw CliException.usage("--kind must be workflow or reference (operational conventions are not searched: "
                    + "agents get them in their instructions), got '" + kind + "'");
        }
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.CONVENTIONS_SEARCH, new Query(query, kind, limit), r -> Tables.print(ctx,
                "no convention matches '" + query + "'", List.of("SLUG", "KIND", "SCORE", "TITLE", "SNIPPET"),
                Tables.rows(r.path("hits"), h -> List.of(h.path("slug").asText(), h.path("kind").asText(),
                        String.format("%.4f", h.path("score").asDouble()), h.path("title").asText(),
                        h.path("snippet").asText()))));
    }
}
