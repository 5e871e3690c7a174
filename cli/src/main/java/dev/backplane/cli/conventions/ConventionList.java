package dev.backplane.cli.conventions;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc conventions list} */
@Command(name = "list", description = "List conventions, highest priority first.")
final class ConventionList extends BackplaneCommand {
    @Mixin ConventionKind kind;
    @Option(names = "--limit", paramLabel = "1..500", description = "maximum conventions (default 100)") Integer limit;
    @Option(names = "--offset", description = "skip this many") Integer offset;

    @Override
    protected void validate() {
        kind.check();
        Limits.check(offset, 0, Integer.MAX_VALUE, "--offset");
    }

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.CONVENTIONS + QueryString.of().add("kind", kind.value).add("limit", limit)
                .add("offset", offset), r ->
                Tables.print(ctx, "no conventions", List.of("SLUG", "KIND", "PRIORITY", "VERSION", "UPDATED",
                        "TITLE"), Tables.rows(r.path("conventions"), c -> List.of(c.path("slug").asText(),
                        c.path("kind").asText(), c.path("priority").asText(), c.path("version").asText(),
                        c.path("updated_at").asText(), c.path("title").asText()))));
    }
}
