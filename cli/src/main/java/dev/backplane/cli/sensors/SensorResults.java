package dev.backplane.cli.sensors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.QueryString;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc sensor results} */
@Command(name = "results", description = "A sensor's results, newest first (kept 7 days by default).")
final class SensorResults extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<sensor-id>") String id;
    @Option(names = "--cursor", description = "the next_cursor a previous page printed") String cursor;
    @Option(names = "--from", paramLabel = "<RFC 3339>") String from;
    @Option(names = "--to", paramLabel = "<RFC 3339>") String to;
    @Option(names = "--limit", paramLabel = "1..500", description = "default 100") Integer limit;
    @Option(names = "--state", description = "ok, degraded, critical, unknown or skip") String state;

    @Override
    protected void validate() {
        rfc3339(from, "--from");
        rfc3339(to, "--to");
    }

    private static void rfc3339(String value, String flag) {
        if (value != null) {
            try {
                OffsetDateTime.parse(value);
            } catch (DateTimeParseException e) {
                throw CliException.usage(flag + " must be an RFC 3339 time such as 2026-01-31T12:00:00Z");
            }
        }
    }

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.SENSOR, id) + "/results" + QueryString.of().add("cursor", cursor).add("from", from)
                .add("to", to).add("limit", limit).add("state", state), page -> {
                    if (page.path("results").isEmpty()) {
                        ctx.out().println("no results");
                    }
                    page.path("results").forEach(r -> ctx.out().println(r.path("evaluated_at").asText() + "  "
                            + r.path("state").asText() + "  " + r.path("call_status").asText() + "  "
                            + r.path("detail").asText()));
                    if (!page.path("next_cursor").isNull() && !page.path("next_cursor").isMissingNode()) {
                        ctx.out().println("more: --cursor " + page.path("next_cursor").asText());
                    }
                });
    }
}
