package dev.backplane.cli.docs;

import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.RequestBody;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc docs}: the docs add-on (experimental) — grounded search and answers over doc collections. */
@Command(name = "docs", description = "Doc collections add-on (experimental): search and ask external documentation.",
        subcommands = {DocsCommand.Search.class, DocsCommand.Ask.class, DocCollectionsCommand.class})
public final class DocsCommand {

    private DocsCommand() {
    }

    /** The options of a query: collections (required), limit and the filters passed to the backend. */
    abstract static class QueryCommand extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<query>")
        String query;
        @Option(names = {"--collection", "-c"}, paramLabel = "<key|all>", required = true,
                description = "collection to search (repeatable; 'all' fans out over every collection you may search)")
        List<String> collections;
        @Option(names = "--limit", paramLabel = "1..50", description = "passages to retrieve (default 10)")
        Integer limit;
        @Option(names = "--product", description = "only passages about this product (passed to the backend)")
        String product;
        @Option(names = "--version", paramLabel = "<version>", description = "only passages about this product version")
        String version;

        @Override
        protected void validate() {
            Limits.check(limit, 1, 50, "--limit");
            if (query.isBlank()) {
                throw CliException.usage("the query is empty");
            }
        }

        /** The body of POST /api/v1/docs/search and /ask. */
        @RequestBody
        record DocsQuery(String query, List<String> collection, Integer limit, String product, String version) {
        }

        DocsQuery body() {
            return new DocsQuery(query, collections, limit, product, version);
        }

        void printFailures(JsonNode r) {
            r.path("failed").forEach(f -> ctx.err().println("warning: collection " + f.path("collection").asText()
                    + " did not answer (" + f.path("error_code").asText() + "): " + f.path("message").asText()));
        }
    }

    /** search */
    @Command(name = "search", description = "Ranked passages with citations from the named collections.")
    static final class Search extends QueryCommand {
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

    /** ask (an extension of SPEC's verbs: the CLI side of the ask_docs tool) */
    @Command(name = "ask", description = "One extractive answer; every sentence cites a retrieved passage [n], or "
            + "'no grounded answer'.")
    static final class Ask extends QueryCommand {
        @Override
        protected void execute(Session s) {
            JsonNode answer = send(s, "POST", ApiPaths.DOCS_ASK, body(), r -> {
                ctx.out().println(r.path("answer").asText());
                if (!r.path("sources").isEmpty()) {
                    ctx.out().println();
                    List<List<String>> rows = Tables.rows(r.path("sources"), src -> List.of("[" + src.path("ref").asInt() + "]",
                            src.path("collection").asText(), src.path("title").asText("-"), src.path("url").asText("-"),
                            src.path("chunk_id").asText()));
                    Tables.print(ctx.out(), List.of("REF", "COLLECTION", "TITLE", "URL", "CHUNK"), rows);
                }
            });
            printFailures(answer);
        }
    }


    private static String snippet(String text) {
        String flat = text.replaceAll("\\s+", " ").strip();
        return flat.length() <= 200 ? flat : flat.substring(0, 197) + "...";
    }
}
