package dev.backplane.cli.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;

/** ask (an extension of SPEC's verbs: the CLI side of the ask_docs tool) */
@Command(name = "ask", description = "One extractive answer; every sentence cites a retrieved passage [n], or "
        + "'no grounded answer'.")
final class Ask extends QueryCommand {
    @Override
    protected void execute(Session s) {
        JsonNode answer = send(s, "POST", ApiPaths.DOCS_ASK, body(), r -> {
            ctx.out().println(r.path("answer").asText());
            if (!r.path("sources").isEmpty()) {
                ctx.out().println();
                List<List<String>> rows = Tables.rows(r.path("sources"), src -> List.of("[" + src.path("ref").asInt()
                        + "]",
                        src.path("collection").asText(), src.path("title").asText("-"), src.path("url").asText("-"),
                        src.path("chunk_id").asText()));
                Tables.print(ctx, List.of("REF", "COLLECTION", "TITLE", "URL", "CHUNK"), rows);
            }
        });
        printFailures(answer);
    }
}
