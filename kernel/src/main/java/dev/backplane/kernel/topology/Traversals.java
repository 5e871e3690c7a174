package dev.backplane.kernel.topology;

import dev.backplane.kernel.targets.Target;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Dependencies, dependents and paths, answered from the tenant's in-memory graph (never a recursive
 * query per request), with SPEC's limits: depth 1..64 (default 16), max hops 1..32 (default 8), and at
 * most {@value #MAX_RESULTS} nodes an answer. A walk also answers the dependency loops among the nodes it went
 * through ({@code cycles}, as {@code <kind>:<name>} keys: searched among the nearest {@value
 * DependencyLoops#MAX_SEARCHED} nodes walked, at most {@value DependencyLoops#MAX_LOOPS} loops of at most {@value
 * DependencyLoops#MAX_LOOP_NODES} nodes each, {@code cycles_truncated} when any bound cut something).
 */
public final class Traversals {

    /** A traversal answers at most this many nodes (and says it was truncated). */
    public static final int MAX_RESULTS = 10_000;

    private static final Bound DEPTH = new Bound("depth", 16, 64, TopologyErrors.INVALID_DEPTH);
    private static final Bound MAX_HOPS = new Bound("max_hops", 8, 32, TopologyErrors.INVALID_MAX_HOPS);

    /** A whole-number parameter: its default when absent, its range 1..max, and the error a value outside raises. */
    private record Bound(String field, int fallback, int max, TopologyErrors error) {

        int of(Integer requested) {
            int value = requested == null ? fallback : requested;
            if (value < 1 || value > max) {
                throw error.error(field + " must be 1.." + max + ", got " + value, Map.of("field", field));
            }
            return value;
        }
    }

    private final TopologyGraphs graphs;
    private final NodeResolver resolver;

    Traversals(TopologyGraphs graphs, NodeResolver resolver) {
        this.graphs = graphs;
        this.resolver = resolver;
    }

    /** What a node reference resolves to in the graph: a node, or a target no edge touches yet. */
    private record Start(Optional<Integer> node, String name) {
    }

    /** Dependencies (outgoing edges) or dependents (incoming) of a node, breadth first. */
    public Map<String, Object> walk(UUID tenant, String name, boolean dependents, Integer depth, boolean includeStale,
                                    List<String> kinds, Optional<String> nodeKind) {
        int d = DEPTH.of(depth);
        kinds.forEach(Vocabulary::edgeKind);
        nodeKind.ifPresent(k -> Vocabulary.nodeKind(k, "node_kind"));
        Optional<Target> target = resolver.target(tenant, Vocabulary.nodeName(name, "node"));
        return graphs.read(tenant, g -> {
            Start s = start(g, name, target);
            TenantGraph.Walked walked = s.node().map(i -> g.walk(i, !dependents, d, Set.copyOf(kinds), nodeKind,
                    includeStale, MAX_RESULTS)).orElse(new TenantGraph.Walked(List.of(), List.of(), false));
            List<TenantGraph.Reached> reached = walked.reached();
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("node", s.name());
            out.put("direction", dependents ? "dependents" : "dependencies");
            out.put("depth", d);
            out.put("nodes", reached.stream().map(r -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("kind", r.node().kind());
                m.put("name", r.node().name());
                m.put("depth", r.depth());
                m.put("via", r.via().name());
                m.put("edge_kind", r.edgeKind());
                m.put("source", r.source());
                m.put("stale", r.stale());
                return m;
            }).toList());
            out.put("truncated", reached.size() >= MAX_RESULTS);
            out.put("cycles", walked.loops().stream().map(l -> l.stream().map(n -> n.kind() + ":" + n.name()).toList())
                    .toList());
            out.put("cycles_truncated", walked.loopsTruncated());
            return out;
        });
    }

    /** A shortest directed path from one node to another within the hop budget, or {@code found: false}. */
    public Map<String, Object> path(UUID tenant, String from, String to, Integer maxHops) {
        int hops = MAX_HOPS.of(maxHops);
        Optional<Target> fromTarget = resolver.target(tenant, Vocabulary.nodeName(from, "from"));
        Optional<Target> toTarget = resolver.target(tenant, Vocabulary.nodeName(to, "to"));
        return graphs.read(tenant, g -> {
            Start a = start(g, from, fromTarget);
            Start b = start(g, to, toTarget);
            Optional<List<TenantGraph.Hop>> path = a.node().isPresent() && b.node().isPresent()
                    ? g.path(a.node().get(), b.node().get(), hops) : Optional.empty();
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("from", a.name());
            out.put("to", b.name());
            out.put("max_hops", hops);
            out.put("found", path.isPresent());
            out.put("hops", path.map(p -> p.stream().map(h -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("from", h.from().name());
                m.put("from_kind", h.from().kind());
                m.put("kind", h.kind());
                m.put("to", h.to().name());
                m.put("to_kind", h.to().kind());
                m.put("edge_id", h.edgeId().toString());
                m.put("source", h.source());
                return m;
            }).toList()).orElse(List.of()));
            return out;
        });
    }

    /**
     * A name, a target's name or alias, or {@code <kind>:<name>}: exactly one node, else {@code 422
     * ambiguous_node}; a registered target no edge touches yet is a node without edges; anything else is
     * {@code 404 node_not_found}.
     */
    private static Start start(TenantGraph g, String name, Optional<Target> target) {
        Set<TenantGraph.NodeRef> candidates = new LinkedHashSet<>(g.named(name));
        target.ifPresent(t -> g.named(t.name()).stream().filter(n -> n.kind().equals(Vocabulary.TARGET))
                .forEach(candidates::add));
        int colon = name.indexOf(':');
        if (candidates.isEmpty() && colon > 0) {
            String kind = name.substring(0, colon);
            g.named(name.substring(colon + 1)).stream().filter(n -> n.kind().equals(kind)).forEach(candidates::add);
        }
        if (candidates.size() > 1) {
            List<String> kinds = candidates.stream().map(TenantGraph.NodeRef::kind).toList();
            throw TopologyErrors.AMBIGUOUS_NODE.error("'" + name + "' names nodes of kinds " + String.join(", ", kinds)
                    + "; write <kind>:<name>", Map.of("node", name, "kinds", kinds));
        }
        if (candidates.isEmpty()) {
            if (target.isPresent()) {
                return new Start(Optional.empty(), target.get().name());
            }
            throw TopologyErrors.NODE_NOT_FOUND.error("no node or target is named '" + name + "'", Map.of("node", name));
        }
        TenantGraph.NodeRef n = candidates.iterator().next();
        return new Start(g.node(n.id()), n.name());
    }
}
