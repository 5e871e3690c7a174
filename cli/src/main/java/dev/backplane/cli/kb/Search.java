package dev.backplane.cli.kb;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc kb search} */
@Command(name = "search", description = "Search by meaning and words (hybrid); hits show a snippet.")
final class Search extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<query>") String query;
    @Option(names = "--limit", paramLabel = "1..50", description = "maximum hits (default 10)") Integer limit;

    /** The body of POST /api/v1/kb/search. */
    @RequestBody
    record Query(String query, Integer limit) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.KB_SEARCH, new Query(query, limit), r -> {
            if (r.path("hits").isEmpty()) {
                ctx.out().println("no kb entry matches '" + query + "'");
                return;
            }
            List<List<String>> rows = Tables.rows(r.path("hits"), h -> List.of(h.path("slug").asText(),
                    String.format("%.4f", h.path("score").asDouble()), h.path("snippet").asText()));
            Tables.print(ctx, List.of("SLUG", "SCORE", "SNIPPET"), rows);
        });
    }
}
