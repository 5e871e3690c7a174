package dev.backplane.cli.conventions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc conventions history} */
@Command(name = "history", description = "Who changed a convention when: newest version first, with the fields "
        + "changed and a unified diff of the body.")
final class ConventionHistory extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Option(names = "--limit", paramLabel = "1..500", description = "newest versions to show (default 20)")
    Integer limit;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.CONVENTION_HISTORY, slug) + QueryString.of().add("limit", limit), r -> {
            for (JsonNode v : r.path("versions")) {
                ctx.out().println("version " + v.path("version").asInt() + "  " + v.path("changed_at").asText() + "  by "
                        + v.path("changed_by").asText());
                for (JsonNode c : v.path("changes")) {
                    String field = c.path("field").asText();
                    if (field.equals("created")) {
                        ctx.out().println("  created: " + v.path("kind").asText() + ", priority "
                                + v.path("priority").asInt() + ", title " + v.path("title").asText());
                    } else if (!field.equals("body")) {
                        ctx.out().println("  " + field + ": " + c.path("from").asText() + " -> " + c.path("to").asText());
                    }
                }
                String diff = v.path("body_diff").asText();
                if (!diff.isEmpty()) {
                    diff.lines().forEach(l -> ctx.out().println("  " + l));
                }
                ctx.out().println();
            }
        });
    }
}
