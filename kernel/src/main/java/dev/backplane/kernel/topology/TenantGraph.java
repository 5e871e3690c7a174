package dev.backplane.kernel.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultEdge;
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

    /**
     * A current edge. Identity equality: the graph is a multigraph (a curated and an auto edge may share ends). A
     * {@link DefaultEdge}, so JGraphT keeps an edge's ends in the edge (an intrusive edge) and reads them there, not
     * from a map of every edge of the tenant.
     */
    static final class Link extends DefaultEdge {
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

    /** What a walk answers: the nodes reached, and the dependency loops among the nodes it went through. */
    record Walked(List<Reached> reached, List<List<NodeRef>> loops, boolean loopsTruncated) {
    }

    /**
     * Breadth-first walk from {@code start} along outgoing edges (dependencies) or incoming ones
     * (dependents), at most {@code depth} hops, through edges of {@code kinds} (empty: any) and, unless
     * {@code includeStale}, only edges discovery still sees ({@link BoundedWalk}: JGraphT's breadth-first
     * iterator). {@code nodeKind} filters what is returned, not what is walked through. Stops after {@code
     * cap} results (the caller reports truncation). The loops ({@link DependencyLoops}: JGraphT's strongly
     * connected sets) are those among the start and the nodes walked through before the cap, over the same edges.
     */
    Walked walk(int start, boolean outgoing, int depth, Set<String> kinds, Optional<String> nodeKind,
                boolean includeStale, int cap) {
        Predicate<Link> followed = l -> (includeStale || !l.stale) && (kinds.isEmpty() || kinds.contains(l.kind));
        List<Reached> out = new ArrayList<>();
        int[] order = new int[nodes.size()];
        int[] walked = {1};
        order[0] = start;
        BoundedWalk.walk(graph, outgoing, followed, start, depth, (w, l, d) -> {
            if (out.size() >= cap) {
                return; // the rest of the node being expanded when the cap was reached
            }
            order[walked[0]++] = w;
            NodeRef n = nodes.get(w);
            if (nodeKind.isEmpty() || nodeKind.get().equals(n.kind())) {
                out.add(new Reached(n, d, nodes.get(outgoing ? l.from : l.to), l.kind, l.source, l.stale));
            }
        }, () -> out.size() < cap);
        DependencyLoops.Loops loops = DependencyLoops.among(graph, followed, order, walked[0]);
        return new Walked(out, loops.loops().stream().map(l -> l.stream().map(nodes::get).toList()).toList(),
                loops.truncated());
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
