package dev.backplane.cli.memory;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc list} */
@Command(name = "list", description = "List the memory entries you can see.")
public final class ListMemory extends BackplaneCommand {
    @Option(names = "--scope") String scope;
    @Option(names = "--slug-pattern", description = "substring of the slug") String slugPattern;
    @Option(names = "--tag") String tag;
    @Option(names = "--include-expired") boolean includeExpired;
    @Option(names = "--limit", paramLabel = "1..500", description = "maximum entries (default 100)") Integer limit;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.MEMORY + QueryString.of().add("scope", scope)
                .add("slug_pattern", slugPattern).add("tag", tag).add("include_expired", includeExpired)
                .add("limit", limit), r -> {
            List<List<String>> rows = Tables.rows(r, e -> List.of(e.path("scope").asText() + "/"
                    + e.path("slug").asText(),
                    e.path("target_name").asText(""), e.path("expires_at").asText(""),
                    MemoryCommands.snippet(e.path("body").asText())));
            Tables.print(ctx, List.of("ENTRY", "TARGET", "EXPIRES", "BODY"), rows);
        });
    }
}
