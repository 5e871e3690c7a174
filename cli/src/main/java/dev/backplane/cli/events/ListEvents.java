package dev.backplane.cli.events;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc events list} */
@Command(name = "list", description = "Events, newest first.")
final class ListEvents extends BackplaneCommand {
    @Option(names = "--source", description = "only this source's slug") String source;
    @Option(names = "--type", description = "only this event_type") String type;
    @Option(names = "--limit", paramLabel = "1..500", description = "default 100") Integer limit;
    @Option(names = "--cursor", description = "next_cursor of the previous page") String cursor;

    @Override
    protected void execute(Session s) {
        String q = QueryString.of().add("source", source).add("event_type", type).add("limit", limit)
                .add("cursor", cursor).toString();
        get(s, ApiPaths.EVENTS + q, page -> {
            List<List<String>> rows = Tables.rows(page.path("events"), e -> List.of(e.path("received_at").asText(),
                    e.path("id").asText(), e.path("source").asText(),
                        e.path("event_type").asText(), e.path("summary").path("labels").toString()));
            Tables.print(ctx, "no events", List.of("RECEIVED", "ID", "SOURCE", "TYPE", "LABELS"), rows);
            if (!page.path("next_cursor").asText().isEmpty()) {
                ctx.out().println("more: --cursor '" + page.path("next_cursor").asText() + "'");
            }
        });
    }
}
