package dev.backplane.cli.events;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc event-source list} */
@Command(name = "list", description = "The tenant's event sources.")
final class ListSources extends BackplaneCommand {
    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.EVENT_SOURCES, all -> {
            List<List<String>> rows = Tables.rows(all.path("event_sources"), e -> List.of(e.path("name").asText(),
                    e.path("slug").asText(), e.path("kind").asText(),
                        e.path("auth_strategy").asText(), e.path("status").asText()));
            Tables.print(ctx, "no event sources", List.of("NAME", "SLUG", "KIND", "AUTH", "STATUS"), rows);
        });
    }
}
