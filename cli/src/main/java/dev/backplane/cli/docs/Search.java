package dev.backplane.cli.docs;

import static dev.backplane.cli.docs.DocsCommand.snippet;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Json;
import picocli.CommandLine.Command;

/** {@code svc docs search} */
@Command(name = "search", description = "Ranked passages with citations from the named collections.")
final class Search extends QueryCommand {
    @Override
    protected void execute(Session s) {
        JsonNode answer = send(s, "POST", ApiPaths.DOCS_SEARCH, body(), r -> {
            if (r.path("chunks").isEmpty()) {
                ctx.out().println("no passage matches '" + query + "' in " + String.join(", ",
                        Json.texts(r.path("collections"))));
            }
            for (JsonNode ch : r.path("chunks")) {
                JsonNode cite = ch.path("citation");
                ctx.out().println(ch.path("rank").asInt() + ". [" + cite.path("collection").asText() + "] "
                        + cite.path("title").asText(cite.path("chunk_id").asText())
                        + (cite.path("url").isTextual() ? "  " + cite.path("url").asText() : "")
                        + "  (chunk " + cite.path("chunk_id").asText() + ")");
                ctx.out().println("   " + snippet(ch.path("text").asText()));
            }
        });
        printFailures(answer);
    }
}
