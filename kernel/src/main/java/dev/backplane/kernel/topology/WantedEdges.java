package dev.backplane.kernel.topology;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Turns edges as written (curated input, or what a discovery saw) into {@link EdgeWrites.Want}s between
 * resolved nodes, and the problem rules of curated writes: every problem of an import is listed (with
 * its index, code, message and field) and any one of them refuses the whole import.
 */
final class WantedEdges {

    /** A refused import lists at most this many problems (and counts them all). */
    static final int MAX_PROBLEMS = 100;

    private final NodeResolver resolver;

    WantedEdges(NodeResolver resolver) {
        this.resolver = resolver;
    }

    /** The problems of every line of an import as written (before any node is resolved), by index. */
    static List<Map<String, Object>> problems(List<EdgeInput> edges) {
        List<Map<String, Object>> problems = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) {
            EdgeInput e = edges.get(i);
            if (e == null) {
                problems.add(problem(i, CommonErrors.INVALID_BODY.error("edge is null")));
                continue;
            }
            for (DomainException p : e.problems()) {
                problems.add(problem(i, p));
            }
        }
        return problems;
    }

    /** One problem of an import: the edge's index, the error's code and message, and its field if it names one. */
    static Map<String, Object> problem(int index, DomainException e) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("index", index);
        p.put("code", e.code());
        p.put("message", e.getMessage());
        Object field = e.extras().get("field");
        if (field != null) {
            p.put("field", field);
        }
        return p;
    }

    /**
     * Refuses an import with problems: {@code invalid_edge} listing the first {@link #MAX_PROBLEMS} (and the
     * edge vocabulary when an edge kind is unknown); no problems, no refusal.
     */
    static void refuse(List<Map<String, Object>> problems, int total) {
        if (problems.isEmpty()) {
            return;
        }
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("problems", problems.subList(0, Math.min(problems.size(), MAX_PROBLEMS)));
        extras.put("problem_count", problems.size());
        if (problems.stream().anyMatch(p -> p.get("code").equals(TopologyErrors.UNKNOWN_EDGE_KIND.code()))) {
            extras.put("valid_kinds", Vocabulary.EDGE_KINDS);
        }
        throw TopologyErrors.INVALID_EDGE.error(problems.size() + " problem(s) in " + total + " edges; nothing was "
                + "imported (first: edge " + problems.getFirst().get("index") + ": " + problems.getFirst().get("message")
                + ")", extras);
    }

    /**
     * Resolves the ends of every edge (creating nodes named with a kind). Edges already in {@code problems}
     * (by index) are skipped; any problem, earlier or found here, refuses them all with every problem listed.
     * A {@code single} edge (annotate, unannotate) answers its problem as itself; an import of any size
     * answers {@code invalid_edge} with {@code extras.problems}.
     */
    List<EdgeWrites.Want> curated(Connection c, UUID tenant, String actor, List<EdgeInput> edges, Instant at,
                                  List<Map<String, Object>> problems, boolean single) throws SQLException {
        Set<Object> bad = new HashSet<>();
        problems.forEach(p -> bad.add(p.get("index")));
        Set<NodeResolver.Ref> refs = new LinkedHashSet<>();
        for (int i = 0; i < edges.size(); i++) {
            if (!bad.contains(i)) {
                refs.add(edges.get(i).fromRef());
                refs.add(edges.get(i).toRef());
            }
        }
        Map<NodeResolver.Ref, DomainException> failed = new LinkedHashMap<>();
        Map<NodeResolver.Ref, TenantGraph.NodeRef> nodes = resolver.resolve(c, tenant, refs, actor, at, failed);
        List<EdgeWrites.Want> wants = new ArrayList<>(edges.size());
        for (int i = 0; i < edges.size(); i++) {
            if (bad.contains(i)) {
                continue;
            }
            EdgeInput e = edges.get(i);
            DomainException unresolved = failed.getOrDefault(e.fromRef(), failed.get(e.toRef()));
            if (unresolved != null) {
                if (single) {
                    throw unresolved;
                }
                problems.add(problem(i, unresolved));
                continue;
            }
            TenantGraph.NodeRef from = nodes.get(e.fromRef());
            TenantGraph.NodeRef to = nodes.get(e.toRef());
            if (from.id().equals(to.id())) {
                DomainException loop = TopologyErrors.INVALID_EDGE.error("an edge joins two different nodes; both ends "
                        + "are " + from.kind() + " " + from.name(), Map.of("field", "to"));
                if (single) {
                    throw loop;
                }
                problems.add(problem(i, loop));
                continue;
            }
            wants.add(new EdgeWrites.Want(from, e.kind(), to, e.note(), e.evidenceUrl()));
        }
        problems.sort(Comparator.comparing(p -> (Integer) p.get("index")));
        refuse(problems, edges.size());
        return wants;
    }

    /**
     * What a discovery saw, between resolved nodes: an edge whose end does not resolve, or whose ends are one
     * node, is left out (discovery is not refused for what a product reports).
     */
    List<EdgeWrites.Want> seen(Connection c, UUID tenant, String actor, List<Seen> seen, Instant at)
            throws SQLException {
        Set<NodeResolver.Ref> refs = new LinkedHashSet<>();
        seen.forEach(s -> {
            refs.add(new NodeResolver.Ref(s.from().name(), s.from().kind()));
            refs.add(new NodeResolver.Ref(s.to().name(), s.to().kind()));
        });
        Map<NodeResolver.Ref, DomainException> failed = new LinkedHashMap<>();
        Map<NodeResolver.Ref, TenantGraph.NodeRef> nodes = resolver.resolve(c, tenant, refs, actor, at, failed);
        List<EdgeWrites.Want> wants = new ArrayList<>();
        for (Seen s : seen) {
            TenantGraph.NodeRef from = nodes.get(new NodeResolver.Ref(s.from().name(), s.from().kind()));
            TenantGraph.NodeRef to = nodes.get(new NodeResolver.Ref(s.to().name(), s.to().kind()));
            if (from != null && to != null && !from.id().equals(to.id())) {
                wants.add(new EdgeWrites.Want(from, s.kind(), to, null, null));
            }
        }
        return wants;
    }
}
