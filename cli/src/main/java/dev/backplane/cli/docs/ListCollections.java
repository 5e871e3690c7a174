package dev.backplane.cli.docs;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc docs collections list} */
@Command(name = "list", description = "Collections you can see; SEARCHABLE says whether this tenant may search one.")
final class ListCollections extends BackplaneCommand {
    @Option(names = "--cursor", paramLabel = "<last key>", description = "continue after this key") String cursor;
    @Option(names = "--limit", paramLabel = "1..500", description = "page size (default 100)") Integer limit;
    @Option(names = "--vendor", description = "only this vendor's collections") String vendor;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.DOCS_COLLECTIONS + QueryString.of().add("cursor", cursor)
                .add("limit", limit).add("vendor", vendor), page -> {
            List<List<String>> rows = Tables.rows(page.path("collections"), c -> List.of(c.path("key").asText(),
                    c.path("scope").asText(),
                    c.path("state").asText(), c.path("searchable").asBoolean() ? "yes" : "no",
                    c.path("backend_type").asText(), String.join(",", Json.texts(c.path("product"))),
                    c.path("vendor").asText("-"), c.path("description").asText()));
            Tables.print(ctx, "no doc collections", List.of("KEY", "SCOPE", "STATE", "SEARCHABLE", "BACKEND",
                    "PRODUCT",
                        "VENDOR", "DESCRIPTION"), rows);
            if (!page.path("next_cursor").isNull()) {
                ctx.out().println("more: svc docs collections list --cursor " + page.path("next_cursor").asText());
            }
        });
    }
}
