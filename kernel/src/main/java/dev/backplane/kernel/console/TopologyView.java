package dev.backplane.kernel.console;

import dev.backplane.kernel.topology.EdgeView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A part of the topology graph as the page lists it and Cytoscape.js draws it: nodes, edges with their kind, source,
 * conflict and stale marks, and what the view left out ({@code truncated}, a path not found, cycles met).
 */
public record TopologyView(List<Node> nodes, List<Edge> edges, boolean truncated, String note) {

    /** The most edges the whole-graph view draws. */
    static final int MAX_EDGES = 1000;
    static final TopologyView EMPTY = new TopologyView(List.of(), List.of(), false, null);

    public record Node(String id, String name, String kind) {
    }

    public record Edge(String from, String to, String kind, String source, boolean conflict, boolean stale) {
    }

    static TopologyView ofEdges(List<EdgeView> rows, boolean more) {
        Map<String, Node> nodes = new LinkedHashMap<>();
        List<Edge> edges = new ArrayList<>();
        for (EdgeView e : rows) {
            Node from = nodes.computeIfAbsent(e.fromKind() + ":" + e.from(), id -> new Node(id, e.from(), e.fromKind()));
            Node to = nodes.computeIfAbsent(e.toKind() + ":" + e.to(), id -> new Node(id, e.to(), e.toKind()));
            edges.add(new Edge(from.id(), to.id(), e.kind(), e.source(), e.conflict(), e.stale()));
        }
        return new TopologyView(List.copyOf(nodes.values()), edges, more, more ? "the first " + MAX_EDGES
                + " edges are shown; ask for a node's dependencies or dependents to see the rest" : null);
    }

    /** A walk's answer ({@code Traversals.walk}): the start, and each node reached with the node it came from. */
    @SuppressWarnings("unchecked")
    static TopologyView ofWalk(Map<String, Object> walk) {
        boolean dependents = "dependents".equals(walk.get("direction"));
        String start = String.valueOf(walk.get("node"));
        Map<String, Node> nodes = new LinkedHashMap<>();
        nodes.put(start, new Node(start, start, "start"));
        List<Edge> edges = new ArrayList<>();
        for (Map<String, Object> r : (List<Map<String, Object>>) walk.get("nodes")) {
            String name = String.valueOf(r.get("name"));
            nodes.putIfAbsent(name, new Node(name, name, String.valueOf(r.get("kind"))));
            String via = String.valueOf(r.get("via"));
            nodes.putIfAbsent(via, new Node(via, via, "node"));
            edges.add(new Edge(dependents ? name : via, dependents ? via : name, String.valueOf(r.get("edge_kind")),
                    String.valueOf(r.get("source")), false, Boolean.TRUE.equals(r.get("stale"))));
        }
        List<?> cycles = (List<?>) walk.getOrDefault("cycles", List.of());
        String note = cycles.isEmpty() ? null : "cycles met: " + cycles;
        return new TopologyView(List.copyOf(nodes.values()), edges, Boolean.TRUE.equals(walk.get("truncated")), note);
    }

    /** A path's answer ({@code Traversals.path}): its hops in order, or a note that none was found. */
    @SuppressWarnings("unchecked")
    static TopologyView ofPath(Map<String, Object> path) {
        if (!Boolean.TRUE.equals(path.get("found"))) {
            return new TopologyView(List.of(), List.of(), false, "no path from " + path.get("from") + " to "
                    + path.get("to") + " within " + path.get("max_hops") + " hops");
        }
        Map<String, Node> nodes = new LinkedHashMap<>();
        List<Edge> edges = new ArrayList<>();
        for (Map<String, Object> h : (List<Map<String, Object>>) path.get("hops")) {
            Node from = node(nodes, h.get("from_kind"), h.get("from"));
            Node to = node(nodes, h.get("to_kind"), h.get("to"));
            edges.add(new Edge(from.id(), to.id(), String.valueOf(h.get("kind")), String.valueOf(h.get("source")),
                    false, false));
        }
        return new TopologyView(List.copyOf(nodes.values()), edges, false, null);
    }

    private static Node node(Map<String, Node> nodes, Object kind, Object name) {
        String id = kind + ":" + name;
        return nodes.computeIfAbsent(id, k -> new Node(id, String.valueOf(name), String.valueOf(kind)));
    }

    /** The name of node {@code id} as the table shows it. */
    public String name(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).map(Node::name).findFirst().orElse(id);
    }

    /** The Cytoscape.js elements of this view. */
    Map<String, Object> drawing() {
        List<Map<String, Object>> n = nodes.stream().map(x -> Map.<String, Object>of("data", Map.of("id", x.id(),
                "label", x.name(), "kind", x.kind()))).toList();
        List<Map<String, Object>> e = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) {
            Edge x = edges.get(i);
            e.add(Map.of("data", Map.of("id", "e" + i, "source", x.from(), "target", x.to(), "label", x.kind(),
                    "conflict", x.conflict(), "stale", x.stale(), "curated", "curated".equals(x.source()))));
        }
        return Map.of("nodes", n, "edges", e);
    }
}
