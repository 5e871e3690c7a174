package dev.backplane.cli.targets;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc targets list} */
@Command(name = "list", description = "List targets by name.")
final class ListTargets extends BackplaneCommand {
    @Option(names = "--cursor", paramLabel = "<last name>", description = "continue after this name") String cursor;
    @Option(names = "--limit", paramLabel = "1..500", description = "page size (default 100)") Integer limit;
    @Option(names = {"--product", "-p"}, description = "only this product")
    String product;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.TARGETS + QueryString.of().add("cursor", cursor).add("limit", limit).add("product", product),
                page -> {
            List<List<String>> rows = Tables.rows(page.path("targets"), t -> List.of(t.path("name").asText(),
                    t.path("product").asText(),
                        t.path("host").asText() + ":" + t.path("port").asInt(), String.join(",",
                                Json.texts(t.path("aliases"))),
                        t.path("fingerprint").isNull() ? "-" : Json.str(t.path("fingerprint").path("version"))));
            Tables.print(ctx, "no targets", List.of("NAME", "PRODUCT", "ADDRESS", "ALIASES", "PROBED VERSION"),
                    rows);
            if (!page.path("next_cursor").isNull()) {
                ctx.out().println("more: svc targets list --cursor " + page.path("next_cursor").asText());
            }
        });
    }
}
