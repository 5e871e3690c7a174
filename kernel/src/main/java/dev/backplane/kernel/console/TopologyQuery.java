package dev.backplane.kernel.console;

import io.helidon.webserver.http.ServerRequest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the topology page is asked to show: {@code graph} (the whole graph, or only its conflicts), a node's
 * {@code dependencies} or {@code dependents} to {@code depth}, or the {@code path} from {@code node} to {@code to}.
 * An unknown query shows the whole graph; a walk or path without its node(s) too.
 */
public record TopologyQuery(String query, String node, String to, Integer depth, boolean conflictsOnly) {

    public static final List<String> QUERIES = List.of("graph", "dependencies", "dependents", "path");

    static TopologyQuery of(ServerRequest req) {
        String node = req.query().first("node").orElse("").strip();
        String to = req.query().first("to").orElse("").strip();
        String query = req.query().first("query").orElse("graph");
        if (!QUERIES.contains(query) || node.isEmpty() || (query.equals("path") && to.isEmpty())) {
            query = "graph";
        }
        Integer depth = req.query().first("depth").asOptional().flatMap(TopologyQuery::number).orElse(null);
        return new TopologyQuery(query, node, to, depth, req.query().first("conflicts").orElse("").equals("true"));
    }

    private static java.util.Optional<Integer> number(String text) {
        try {
            return java.util.Optional.of(Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            return java.util.Optional.empty();
        }
    }

    /** The drawing's data for this view. */
    public String graphLink() {
        return "/ui/topology/graph.json?query=" + query + "&node=" + encode(node) + "&to=" + encode(to)
                + (depth == null ? "" : "&depth=" + depth) + (conflictsOnly ? "&conflicts=true" : "");
    }

    /** {@code name}'s dependencies (a link from a node in the table). */
    public static String dependenciesOf(String name) {
        return "/ui/topology?query=dependencies&node=" + encode(name);
    }

    /** {@code name}'s dependents. */
    public static String dependentsOf(String name) {
        return "/ui/topology?query=dependents&node=" + encode(name);
    }

    public String depthText() {
        return depth == null ? "" : String.valueOf(depth);
    }

    private static String encode(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }
}
