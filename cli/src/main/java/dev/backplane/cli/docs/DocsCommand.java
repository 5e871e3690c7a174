package dev.backplane.cli.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

        Map<String, Object> body() {
            Map<String, Object> req = new LinkedHashMap<>();
            req.put("query", query);
            req.put("collection", collections);
            if (limit != null) {
                req.put("limit", limit);
            }
            if (product != null) {
                req.put("product", product);
            }
            if (version != null) {
                req.put("version", version);
            }
            return req;
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
            JsonNode r = s.client().call("POST", ApiPaths.DOCS_SEARCH, body()).json();
            print(r, () -> {
                if (r.path("chunks").isEmpty()) {
                    ctx.out().println("no passage matches '" + query + "' in " + String.join(", ",
                            texts(r.path("collections"))));
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
            printFailures(r);
        }
    }

    /** ask (an extension of SPEC's verbs: the CLI side of the ask_docs tool) */
    @Command(name = "ask", description = "One extractive answer; every sentence cites a retrieved passage [n], or "
            + "'no grounded answer'.")
    static final class Ask extends QueryCommand {
        @Override
        protected void execute(Session s) {
            JsonNode r = s.client().call("POST", ApiPaths.DOCS_ASK, body()).json();
            print(r, () -> {
                ctx.out().println(r.path("answer").asText());
                if (!r.path("sources").isEmpty()) {
                    ctx.out().println();
                    List<List<String>> rows = new ArrayList<>();
                    r.path("sources").forEach(src -> rows.add(List.of("[" + src.path("ref").asInt() + "]",
                            src.path("collection").asText(), src.path("title").asText("-"), src.path("url").asText("-"),
                            src.path("chunk_id").asText())));
                    Tables.print(ctx.out(), List.of("REF", "COLLECTION", "TITLE", "URL", "CHUNK"), rows);
                }
            });
            printFailures(r);
        }
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String snippet(String text) {
        String flat = text.replaceAll("\\s+", " ").strip();
        return flat.length() <= 200 ? flat : flat.substring(0, 197) + "...";
    }
}
