package dev.backplane.kernel.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the topology page is asked to show: {@code graph} (the whole graph, or only its conflicts), a node's
 * {@code dependencies} or {@code dependents} to {@code depth}, or the {@code path} from {@code node} to {@code to}.
 * An unknown query shows the whole graph; a walk or path without its node(s) too.
 */
public record TopologyQuery(String query, String node, String to, Integer depth, boolean conflictsOnly) {

    public static final List<String> QUERIES = List.of("graph", "dependencies", "dependents", "path");

    /** The view a query string asks for, read through {@code param} (a parameter's first value, if any). */
    static TopologyQuery of(Function<String, Optional<String>> param) {
        String node = param.apply("node").orElse("").strip();
        String to = param.apply("to").orElse("").strip();
        String query = param.apply("query").orElse("graph");
        if (!QUERIES.contains(query) || node.isEmpty() || (query.equals("path") && to.isEmpty())) {
            query = "graph";
        }
        Integer depth = param.apply("depth").flatMap(TopologyQuery::number).orElse(null);
        return new TopologyQuery(query, node, to, depth, param.apply("conflicts").orElse("").equals("true"));
    }

    private static Optional<Integer> number(String text) {
        try {
            return Optional.of(Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            return Optional.empty();
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
