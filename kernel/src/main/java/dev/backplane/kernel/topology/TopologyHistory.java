package dev.backplane.kernel.topology;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.util.Paging;
import dev.backplane.kernel.util.Times;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads of the edge versions: the current edge list with its filters, the graph as it was at two
 * instants and what differs, a node's history and the tenant's timeline of changes. These answer from
 * the version rows (valid-from/valid-to, read by {@code TopologyHistoryStore}), not from the in-memory
 * graph, which only holds the present; this class checks the parameters and shapes the answers.
 */
public final class TopologyHistory {

    public static final Paging.Size LIST_PAGE = new Paging.Size(200, 1000);
    public static final Paging.Size HISTORY_PAGE = new Paging.Size(100, 5000);
    public static final Paging.Size TIMELINE_PAGE = new Paging.Size(50, 1000);
    /** A diff lists at most this many edges (and says it was truncated). */
    public static final int DIFF_MAX = 10_000;

    /** Filters of the edge list. */
    public record EdgeFilter(boolean conflicts, Optional<String> from, Optional<String> to, Optional<String> kind,
                             Optional<String> source, int limit, int offset) {
    }

    private final TopologyHistoryStore store;
    private final NodeResolver resolver;

    TopologyHistory(TopologyHistoryStore store, NodeResolver resolver) {
        this.store = store;
        this.resolver = resolver;
    }

    /** Current edges, filtered; {@code from}/{@code to} match a node's name (or a target's alias). */
    public Map<String, Object> edges(UUID tenant, EdgeFilter f) {
        Paging page = LIST_PAGE.checked(f.limit(), f.offset());
        f.kind().ifPresent(Vocabulary::edgeKind);
        f.source().ifPresent(s -> {
            if (!s.equals("curated") && !s.equals("auto")) {
                throw TopologyErrors.INVALID_SOURCE.error("source must be curated or auto, got '" + s + "'",
                        Map.of("field", "source"));
            }
        });
        Optional<String> from = f.from().map(n -> canonical(tenant, n));
        Optional<String> to = f.to().map(n -> canonical(tenant, n));
        List<EdgeView> rows = views(store.current(tenant, f.conflicts(), from, to, f.kind(), f.source(),
                page.limit() + 1, page.offset()));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("edges", rows.subList(0, Math.min(rows.size(), page.limit())));
        out.put("more", rows.size() > page.limit());
        return out;
    }

    private String canonical(UUID tenant, String name) {
        Vocabulary.nodeName(name, "node");
        return resolver.target(tenant, name).map(Target::name).orElse(name);
    }

    /**
     * The edges at {@code t1} and at {@code t2} compared by edge ({@code EdgeDiff}): added, removed, changed
     * (note, evidence, conflict or staleness differ) and, unless {@code changedOnly}, unchanged. Only the edges
     * with a version starting or ending in (t1, t2] are compared row by row; the rest are one version valid at
     * both instants, counted (and, unless {@code changedOnly}, listed up to the cap) without loading the whole
     * graph twice.
     */
    public Map<String, Object> diff(UUID tenant, Instant t1, Instant t2, boolean changedOnly, Optional<String> kind) {
        ordered(Optional.of(t1), "t1", Optional.of(t2), "t2");
        kind.ifPresent(Vocabulary::edgeKind);
        EdgeDiff d = EdgeDiff.of(at(tenant, t1, t1, t2, kind), at(tenant, t2, t1, t2, kind), changedOnly);
        int listed = d.untouched(store.untouchedCount(tenant, t1, t2, kind));
        if (listed > 0) {
            d.unchanged(views(store.untouched(tenant, t1, t2, kind, listed)));
        }
        return d.answer(t1, t2);
    }

    /** One edge of a diff: added (no before), removed (no after), changed or unchanged. */
    public record DiffEntry(String status, EdgeView before, EdgeView after) {
    }

    /** The versions valid at {@code t} of the edges with a version starting or ending in (from, to], by edge id. */
    private Map<UUID, EdgeView> at(UUID tenant, Instant t, Instant from, Instant to, Optional<String> kind) {
        Map<UUID, EdgeView> out = new LinkedHashMap<>();
        views(store.validAtAmongChanged(tenant, t, from, to, kind)).forEach(v -> out.put(v.edgeId(), v));
        return out;
    }

    /**
     * A node's history, newest first: the node's own record and, with {@code includeEdges}, every version
     * of every edge that touches it, within {@code since}..{@code until}.
     */
    public Map<String, Object> history(UUID tenant, String name, boolean includeEdges, int limit, Optional<Instant> since,
                                       Optional<Instant> until) {
        HISTORY_PAGE.checked(limit, 0);
        ordered(since, "since", until, "until");
        List<TenantGraph.NodeRef> nodes = nodes(tenant, name);
        List<UUID> ids = nodes.stream().map(TenantGraph.NodeRef::id).toList();
        Instant from = since.orElse(Instant.EPOCH);
        Instant to = until.orElse(Times.LATEST);
        List<Map<String, Object>> entries = new ArrayList<>();
        for (TopologyHistoryStore.NodeCreated n : store.created(tenant, ids, from, to)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("at", n.at());
            m.put("change", "node-created");
            m.put("node", Map.of("kind", n.node().kind(), "name", n.node().name()));
            m.put("changed_by", n.createdBy());
            entries.add(m);
        }
        if (includeEdges) {
            for (EdgeView v : views(store.versionsTouching(tenant, ids, from, to, limit))) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("at", v.validFrom());
                m.put("change", "edge-" + v.change());
                m.put("edge", v);
                m.put("changed_by", v.changedBy());
                entries.add(m);
            }
        }
        // newest first; a node's creation comes after (below) the edge written in the same instant
        entries.sort(Comparator.<Map<String, Object>, Instant>comparing(e -> (Instant) e.get("at")).reversed()
                .thenComparing(e -> e.containsKey("node")));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("nodes", nodes.stream().map(n -> Map.of("kind", n.kind(), "name", n.name())).toList());
        out.put("entries", entries.subList(0, Math.min(entries.size(), limit)));
        return out;
    }

    /** The nodes a name means for history: every node of that name (or the target's), or {@code <kind>:<name>}. */
    private List<TenantGraph.NodeRef> nodes(UUID tenant, String name) {
        Vocabulary.nodeName(name, "node");
        String canonical = resolver.target(tenant, name).map(Target::name).orElse(name);
        List<TenantGraph.NodeRef> found = store.nodesNamed(tenant, canonical);
        int colon = name.indexOf(':');
        if (found.isEmpty() && colon > 0) {
            found = store.node(tenant, name.substring(0, colon), name.substring(colon + 1));
        }
        if (found.isEmpty()) {
            throw TopologyErrors.NODE_NOT_FOUND.error("no node is named '" + name + "'", Map.of("node", name));
        }
        return found;
    }

    /**
     * The tenant's changes, newest first: every edge version (created, updated, stale, seen-again,
     * conflict, conflict-cleared, removed). {@code cursor} is the {@code version} of the last entry of
     * the previous page; {@code target} keeps the changes that touch the target's node or that its
     * refreshes made.
     */
    public Map<String, Object> timeline(UUID tenant, Optional<String> cursor, int limit, Optional<Instant> since,
                                        Optional<String> target, Optional<Instant> until) {
        TIMELINE_PAGE.checked(limit, 0);
        ordered(since, "since", until, "until");
        long before = cursor.map(c -> {
            try {
                return Long.parseLong(c.trim());
            } catch (NumberFormatException e) {
                throw CommonErrors.INVALID_CURSOR.error("cursor must be the version of the last entry of the previous "
                        + "page, got '" + c + "'", Map.of("field", "cursor"));
            }
        }).orElse(Long.MAX_VALUE);
        Optional<Target> t = Optional.empty();
        if (target.isPresent()) {
            t = resolver.target(tenant, Vocabulary.nodeName(target.get(), "target"));
            if (t.isEmpty()) {
                throw TopologyErrors.NODE_NOT_FOUND.error("no target is named '" + target.get() + "'",
                        Map.of("target", target.get()));
            }
        }
        List<EdgeView> rows = views(store.timeline(tenant, before, since.orElse(Instant.EPOCH),
                until.orElse(Times.LATEST), t, limit));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("changes", rows);
        out.put("next_cursor", rows.size() == limit ? String.valueOf(rows.getLast().version()) : null);
        return out;
    }

    private static List<EdgeView> views(List<EdgeRow> rows) {
        return rows.stream().map(EdgeView::of).toList();
    }

    /** A range whose end lies before its start is a mistake, not an empty answer: 422 {@code invalid_time}. */
    private static void ordered(Optional<Instant> start, String startName, Optional<Instant> end, String endName) {
        if (start.isPresent() && end.isPresent() && start.get().isAfter(end.get())) {
            throw CommonErrors.INVALID_TIME.error(startName + " (" + start.get() + ") is after " + endName + " ("
                    + end.get() + ")", Map.of("field", endName));
        }
    }
}
