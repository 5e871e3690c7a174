package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import dev.backplane.cli.common.Tables;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc operation search} */
@Command(name = "search", description = "Search a connector's operations.")
final class Search extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<connector_id>") String id;

    @Parameters(index = "1", paramLabel = "<query>") String query;

    @Option(names = "--group", description = "only this group") String group;

    @Option(names = "--limit", paramLabel = "1..50", description = "maximum hits (default 10)") Integer limit;

    Search() {
        super("GET " + ApiPaths.CONNECTOR_OPERATIONS);
    }

    @Override
    protected String query() {
        StringBuilder q = new StringBuilder("?query=").append(enc(query));
        if (group != null) {
            q.append("&group=").append(enc(group));
        }
        if (limit != null) {
            q.append("&limit=").append(limit);
        }
        return q.toString();
    }

    @Override
    protected void render(JsonNode r) {
        if (r.path("retrieval").asText().equals("lexical")) {
            ctx.out().println(lexicalNote(r));
        }
        if (r.path("hits").isEmpty()) {
            ctx.out().println("no operation of " + id + " matches '" + query + "'"
                    + (group == null ? "" : " in group " + group));
            return;
        }
        List<List<String>> rows = Tables.rows(r.path("hits"), h -> List.of(h.path("op_id").asText(),
                h.path("safety_level").asText(),
                    h.path("requires_approval").asBoolean() ? "approval" : "",
                    h.path("is_enabled").asBoolean() ? "on" : "off", h.path("description").asText()));
        Tables.print(ctx, List.of("OP", "SAFETY", "GATE", "ENABLED", "DESCRIPTION"), rows);
    }

    /** The one line that says a search was ranked by words only, while the connector's embeddings are computed. */
    static String lexicalNote(JsonNode r) {
        return "note: ranked by words only (lexical): the operation embeddings of " + r.path("connector_id").asText()
                + " are still being computed; search again shortly for hybrid ranking";
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
