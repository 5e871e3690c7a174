package dev.backplane.cli.memory;

import static dev.backplane.cli.memory.MemoryCommands.scopeSlug;
import static dev.backplane.cli.memory.MemoryCommands.snippet;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc recall} */
@Command(name = "recall", description = "Read <scope>/<slug>, or search with --query.")
public final class Recall extends BackplaneCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "<scope>/<slug>") String ref;
    @Option(names = "--query", description = "search instead of reading one entry") String query;
    @Option(names = "--scope", description = "search only this scope") String scope;
    @Option(names = "--target", description = "target name when the entry exists for several") String target;
    @Option(names = "--limit", paramLabel = "1..50", description = "maximum hits (default 10)") Integer limit;

    @Override
    protected void validate() {
        if ((ref == null) == (query == null)) {
            throw CliException.usage("give either <scope>/<slug> or --query (not both)");
        }
        if (ref != null && (scope != null || limit != null)) {
            throw CliException.usage("--scope and --limit go with --query");
        }
        if (ref != null) {
            scopeSlug(ref);
        }
    }

    @Override
    protected void execute(Session s) {
        if (ref != null) {
            String[] ss = scopeSlug(ref);
            get(s, ApiPaths.expand(ApiPaths.MEMORY_ENTRY, ss[0], ss[1])
                    + QueryString.of().add("target_name", target), r -> ctx.out().println(r.path("body").asText()));
            return;
        }
        get(s, ApiPaths.RETRIEVE + QueryString.of().add("query", query).add("scope", scope)
                .add("limit", limit), r -> {
            List<List<String>> rows = Tables.rows(r.path("hits"), h -> List.of(h.path("scope").asText() + "/"
                    + h.path("slug").asText(),
                    String.format("%.4f", h.path("score").asDouble()), h.path("snippet").asText()));
            Tables.print(ctx, List.of("ENTRY", "SCORE", "SNIPPET"), rows);
        });
    }
}
