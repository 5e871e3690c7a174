package dev.backplane.kernel.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jgrapht.Graph;
import org.jgrapht.graph.DirectedPseudograph;

/**
 * One tenant's current edges as an in-memory JGraphT graph, so traversals never run a recursive query
 * per request. Vertices are dense ints (a node's index); each {@link Link} carries its own ends and
 * flags so a walk reads no maps beyond the graph's adjacency. Not thread-safe: {@link TopologyGraphs}
 * guards each tenant's graph with a read-write lock.
 */
final class TenantGraph {

    /** A node as the graph knows it. */
    record NodeRef(UUID id, String kind, String name) {
    }

    /** A current edge. Identity equality: the graph is a multigraph (a curated and an auto edge may share ends). */
    static final class Link {
        final UUID edgeId;
        final int from;
        final int to;
        final String kind;
        final String source;
        final boolean stale;
        final boolean conflict;

        Link(UUID edgeId, int from, int to, String kind, String source, boolean stale, boolean conflict) {
            this.edgeId = edgeId;
            this.from = from;
            this.to = to;
            this.kind = kind;
            this.source = source;
            this.stale = stale;
            this.conflict = conflict;
        }
    }

    /** A node reached by a walk, how many hops away, and the edge it was first reached by. */
    record Reached(NodeRef node, int depth, NodeRef via, String edgeKind, String source, boolean stale) {
    }

    /** One hop of a path: the edge between two nodes, in the walking direction. */
    record Hop(NodeRef from, String kind, NodeRef to, UUID edgeId, String source) {
    }

    private final Graph<Integer, Link> graph = new DirectedPseudograph<>(null, null, false);
    private final List<NodeRef> nodes = new ArrayList<>();
    private final Map<UUID, Integer> index = new HashMap<>();
    private final Map<String, List<Integer>> byName = new HashMap<>();
    private final Map<UUID, Link> links = new HashMap<>();

    int nodeCount() {
        return nodes.size();
    }

    int edgeCount() {
        return links.size();
    }

    void putNode(NodeRef n) {
        if (index.containsKey(n.id())) {
            return;
        }
        int i = nodes.size();
        nodes.add(n);
        index.put(n.id(), i);
        byName.computeIfAbsent(n.name(), k -> new ArrayList<>(1)).add(i);
        graph.addVertex(i);
    }

    /** Adds or replaces the current state of an edge (by edge id); both nodes must be known. */
    void putEdge(UUID edgeId, UUID from, UUID to, String kind, String source, boolean stale, boolean conflict) {
        removeEdge(edgeId);
        Integer f = index.get(from);
        Integer t = index.get(to);
        if (f == null || t == null) {
            throw new IllegalStateException("edge " + edgeId + " names a node the graph does not know");
        }
        Link l = new Link(edgeId, f, t, kind, source, stale, conflict);
        graph.addEdge(f, t, l);
        links.put(edgeId, l);
    }

    void removeEdge(UUID edgeId) {
        Link old = links.remove(edgeId);
        if (old != null) {
            graph.removeEdge(old);
        }
    }

    Optional<Integer> node(UUID id) {
        return Optional.ofNullable(index.get(id));
    }

    NodeRef ref(int i) {
        return nodes.get(i);
    }

    /** Nodes of this name, any kind. */
    List<NodeRef> named(String name) {
        return byName.getOrDefault(name, List.of()).stream().map(nodes::get).toList();
    }

    /**
     * Breadth-first walk from {@code start} along outgoing edges (dependencies) or incoming ones
     * (dependents), at most {@code depth} hops, through edges of {@code kinds} (empty: any) and, unless
     * {@code includeStale}, only edges discovery still sees. {@code nodeKind} filters what is returned,
     * not what is walked through. Stops after {@code cap} results (the caller reports truncation).
     */
    List<Reached> walk(int start, boolean outgoing, int depth, Set<String> kinds, Optional<String> nodeKind,
                       boolean includeStale, int cap) {
        List<Reached> out = new ArrayList<>();
        // dense arrays, not maps: a deep walk touches tens of thousands of nodes and boxing dominated it
        int[] depthOf = new int[nodes.size()];
        Arrays.fill(depthOf, -1);
        int[] queue = new int[nodes.size()];
        int head = 0;
        int tail = 0;
        depthOf[start] = 0;
        queue[tail++] = start;
        while (head < tail && out.size() < cap) {
            int v = queue[head++];
            int d = depthOf[v];
            if (d >= depth) {
                continue;
            }
            for (Link l : outgoing ? graph.outgoingEdgesOf(v) : graph.incomingEdgesOf(v)) {
                if ((l.stale && !includeStale) || (!kinds.isEmpty() && !kinds.contains(l.kind))) {
                    continue;
                }
                int w = outgoing ? l.to : l.from;
                if (depthOf[w] >= 0) {
                    continue;
                }
                depthOf[w] = d + 1;
                queue[tail++] = w;
                NodeRef n = nodes.get(w);
                if (nodeKind.isEmpty() || nodeKind.get().equals(n.kind())) {
                    out.add(new Reached(n, d + 1, nodes.get(v), l.kind, l.source, l.stale));
                    if (out.size() >= cap) {
                        break;
                    }
                }
            }
        }
        return out;
    }

    /**
     * A shortest directed path of at most {@code maxHops} over edges discovery still sees ({@link PathSearch}: a
     * bidirectional breadth-first search bounded by the graph's size, never by the number of paths).
     */
    Optional<List<Hop>> path(int from, int to, int maxHops) {
        return new PathSearch(this).path(from, to, maxHops);
    }

    /** The current edges leaving node {@code v}. */
    Set<Link> outgoing(int v) {
        return graph.outgoingEdgesOf(v);
    }

    /** The current edges arriving at node {@code v}. */
    Set<Link> incoming(int v) {
        return graph.incomingEdgesOf(v);
    }
}
