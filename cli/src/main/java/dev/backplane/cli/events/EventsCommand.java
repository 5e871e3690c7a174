package dev.backplane.cli.events;

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

/** {@code svc events list|show}: the durable event log. */
@Command(name = "events", description = "The event log: accepted webhook deliveries, normalised.",
        subcommands = {EventsCommand.ListEvents.class, EventsCommand.Show.class})
public final class EventsCommand {

    /** events list */
    @Command(name = "list", description = "Events, newest first.")
    static final class ListEvents extends BackplaneCommand {
        @Option(names = "--source", description = "only this source's slug")
        String source;
        @Option(names = "--type", description = "only this event_type")
        String type;
        @Option(names = "--limit", description = "1..500, default 100")
        Integer limit;
        @Option(names = "--cursor", description = "next_cursor of the previous page")
        String cursor;

        @Override
        protected void validate() {
            if (limit != null && (limit < 1 || limit > 500)) {
                throw CliException.usage("--limit must be 1..500");
            }
        }

        @Override
        protected void execute(Session s) {
            String q = QueryString.of().add("source", source).add("event_type", type).add("limit", limit)
                    .add("cursor", cursor).toString();
            get(s, ApiPaths.EVENTS + q, page -> {
                List<List<String>> rows = Tables.rows(page.path("events"), e -> List.of(e.path("received_at").asText(), e.path("id").asText(), e.path("source").asText(),
                            e.path("event_type").asText(), e.path("summary").path("labels").toString()));
                Tables.print(ctx.out(), "no events", List.of("RECEIVED", "ID", "SOURCE", "TYPE", "LABELS"), rows);
                if (!page.path("next_cursor").asText().isEmpty()) {
                    ctx.out().println("more: --cursor '" + page.path("next_cursor").asText() + "'");
                }
            });
        }
    }

    /** events show */
    @Command(name = "show", description = "One event with its envelope and the raw body as sent.")
    static final class Show extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<event-id>")
        String id;

        @Override
        protected void validate() {
            try {
                java.util.UUID.fromString(id);
            } catch (IllegalArgumentException e) {
                throw CliException.usage("<event-id> must be a uuid");
            }
        }

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.EVENT, id), e -> ctx.out().println(e.toPrettyString()));
        }
    }
}
