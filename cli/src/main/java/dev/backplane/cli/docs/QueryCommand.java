package dev.backplane.cli.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The options of a query: collections (required), limit and the filters passed to the backend. */
abstract class QueryCommand extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<query>") String query;
    @Option(names = {"--collection", "-c"}, paramLabel = "<key|all>", required = true,
            description = "collection to search (repeatable; 'all' fans out over every collection you may search)")
    List<String> collections;
    @Option(names = "--limit", paramLabel = "1..50", description = "passages to retrieve (default 10)") Integer limit;
    @Option(names = "--product", description = "only passages about this product (passed to the backend)")
    String product;
    @Option(names = "--version", paramLabel = "<version>", description = "only passages about this product version")
    String version;

    @Override
    protected void validate() {
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
