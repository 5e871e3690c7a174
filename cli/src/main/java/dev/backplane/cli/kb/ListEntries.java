package dev.backplane.cli.kb;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc kb list} */
@Command(name = "list", description = "List entries by slug.")
final class ListEntries extends BackplaneCommand {
    @Option(names = "--filter", paramLabel = "<pattern>", description = "SQL LIKE pattern on the slug, e.g. k8s-%%")
    String filter;
    @Option(names = "--limit", paramLabel = "1..500", description = "maximum entries (default 100)") Integer limit;
    @Option(names = "--offset", description = "skip this many") Integer offset;

    @Override
    protected void validate() {
        Limits.check(offset, 0, Integer.MAX_VALUE, "--offset");
    }

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.KB + QueryString.of().add("filter", filter).add("limit", limit)
                .add("offset", offset), r -> {
            List<List<String>> rows = Tables.rows(r, e -> List.of(e.path("slug").asText(),
                    e.path("updated_at").asText(),
                    e.path("metadata").toString()));
            Tables.print(ctx, List.of("SLUG", "UPDATED", "METADATA"), rows);
        });
    }
}
