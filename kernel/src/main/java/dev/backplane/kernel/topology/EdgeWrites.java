package dev.backplane.kernel.topology;

import dev.backplane.kernel.topology.TopologyStore.EdgeRow;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * How a set of wanted edges becomes version rows inside one transaction: each edge's current row is
 * closed and its successor inserted only when something changed; afterwards the single-valued kinds
 * leaving the touched nodes are re-decided, so a curated edge contradicting a discovered one (or two
 * refreshes disagreeing) is flagged as a conflict on both instead of one overwriting the other.
 * The outcome carries the counts and the change to apply to the in-memory graph.
 */
final class EdgeWrites {

    /** An edge wanted between two resolved nodes. */
    record Want(TenantGraph.NodeRef from, String kind, TenantGraph.NodeRef to, String note, String evidenceUrl) {
    }

    /** What a write counts; the lower-case name is the key in the refresh counts, in this order. */
    enum Change { CREATED, UPDATED, UNCHANGED, STALE, SEEN_AGAIN, REMOVED, CONFLICTS }

    /** What a write did: counts by change, and the rows that are now current (for the graph). */
    static final class Outcome {
        private final Map<Change, Integer> counted = new EnumMap<>(Change.class);
        final Set<TenantGraph.NodeRef> nodes = new HashSet<>();
        final Map<UUID, EdgeRow> current = new LinkedHashMap<>();
        final List<UUID> gone = new ArrayList<>();
        final List<EdgeRow> written = new ArrayList<>();

        Consumer<TenantGraph> graphChange() {
            return g -> {
                nodes.forEach(g::putNode);
                current.values().forEach(r -> g.putEdge(r.edgeId(), r.from(), r.to(), r.kind(), r.source(), r.stale(), r.conflict()));
                gone.forEach(g::removeEdge);
            };
        }

        int count(Change change) {
            return counted.getOrDefault(change, 0);
        }

        private void add(Change change) {
            counted.merge(change, 1, Integer::sum);
        }

        Map<String, Object> counts() {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Change change : Change.values()) {
                m.put(change.name().toLowerCase(Locale.ROOT), count(change));
            }
            return m;
        }
    }

    private final Connection c;
    private final UUID tenant;
    private final String actor;
    private final Instant at;
    private final Outcome out = new Outcome();
    private final List<Long> closing = new ArrayList<>();
    private final List<EdgeRow> inserting = new ArrayList<>();
    private final Set<UUID> touched = new HashSet<>();

    EdgeWrites(Connection c, UUID tenant, String actor, Instant at) {
        this.c = c;
        this.tenant = tenant;
        this.actor = actor;
        this.at = at;
    }

    Outcome outcome() {
        return out;
    }

    /**
     * Curated edges: created, or updated when their note or evidence changed (an edge annotated again
     * without a note keeps its note; an empty note or evidence URL clears it).
     */
    EdgeWrites curated(List<Want> wants) throws SQLException {
        Map<List<Object>, Want> unique = new LinkedHashMap<>();
        wants.forEach(w -> unique.put(List.of(w.from().id(), w.kind(), w.to().id()), w));
        Map<List<Object>, EdgeRow> current = currentByKeys(List.copyOf(unique.values()), "curated", "");
        for (var e : unique.entrySet()) {
            Want w = e.getValue();
            out.nodes.add(w.from());
            out.nodes.add(w.to());
            EdgeRow now = current.get(e.getKey());
            String note = kept(w.note(), now == null ? null : now.note());
            String evidence = kept(w.evidenceUrl(), now == null ? null : now.evidenceUrl());
            if (now == null) {
                add(new EdgeRow(0, UUID.randomUUID(), w.from().id(), w.from().kind(), w.from().name(), w.kind(),
                        w.to().id(), w.to().kind(), w.to().name(), "curated", "", note, evidence, false,
                        false, "created", actor, at, null));
                out.add(Change.CREATED);
            } else if (now.sameContent(note, evidence, false)) {
                out.add(Change.UNCHANGED);
            } else {
                replace(now, now.next(note, evidence, now.conflict(), false, "updated", actor, at));
                out.add(Change.UPDATED);
            }
        }
        return this;
    }

    /** A note or evidence URL as written: absent keeps the current one, empty clears it. */
    private static String kept(String given, String current) {
        return given == null ? current : given.isEmpty() ? null : given;
    }

    /**
     * What one refresh of a target saw: new edges are created, edges seen again after being stale are
     * revived, and this target's edges it no longer sees are marked stale (never deleted).
     */
    EdgeWrites observed(String origin, List<Want> seen) throws SQLException {
        Map<List<Object>, EdgeRow> current = new LinkedHashMap<>();
        for (EdgeRow r : TopologyStore.currentOfOrigin(c, tenant, origin)) {
            current.put(List.of(r.from(), r.kind(), r.to()), r);
        }
        Set<List<Object>> seenKeys = new HashSet<>();
        for (Want w : seen) {
            List<Object> key = List.of(w.from().id(), w.kind(), w.to().id());
            if (!seenKeys.add(key)) {
                continue;
            }
            out.nodes.add(w.from());
            out.nodes.add(w.to());
            EdgeRow now = current.get(key);
            if (now == null) {
                add(new EdgeRow(0, UUID.randomUUID(), w.from().id(), w.from().kind(), w.from().name(), w.kind(),
                        w.to().id(), w.to().kind(), w.to().name(), "auto", origin, null, null, false, false, "created",
                        actor, at, null));
                out.add(Change.CREATED);
            } else if (now.stale()) {
                replace(now, now.next(now.note(), now.evidenceUrl(), now.conflict(), false, "seen-again", actor, at));
                out.add(Change.SEEN_AGAIN);
            } else {
                out.add(Change.UNCHANGED);
            }
        }
        for (var e : current.entrySet()) {
            EdgeRow now = e.getValue();
            if (!seenKeys.contains(e.getKey()) && !now.stale()) {
                replace(now, now.next(now.note(), now.evidenceUrl(), now.conflict(), true, "stale", actor, at));
                out.add(Change.STALE);
            }
        }
        return this;
    }

    /** Removes current edges: the row is closed and a removal marker (valid at no instant) is written. */
    EdgeWrites remove(List<EdgeRow> rows) {
        for (EdgeRow now : rows) {
            closing.add(now.versionId());
            EdgeRow marker = now.next(now.note(), now.evidenceUrl(), now.conflict(), now.stale(), "removed", actor, at);
            inserting.add(new EdgeRow(0, marker.edgeId(), marker.from(), marker.fromKind(), marker.fromName(),
                    marker.kind(), marker.to(), marker.toKind(), marker.toName(), marker.source(), marker.origin(),
                    marker.note(), marker.evidenceUrl(), marker.conflict(), marker.stale(), "removed", actor, at, at));
            out.written.add(inserting.getLast());
            out.gone.add(now.edgeId());
            touched.add(now.from());
            out.add(Change.REMOVED);
        }
        return this;
    }

    /** Writes everything, then re-decides the conflict flags of the single-valued kinds it touched. */
    Outcome finish() throws SQLException {
        flush();
        List<EdgeRow> around = touched.isEmpty() ? List.of()
                : TopologyStore.currentFrom(c, tenant, touched, Vocabulary.SINGLE_VALUED);
        Map<List<Object>, List<EdgeRow>> groups = new LinkedHashMap<>();
        around.forEach(r -> groups.computeIfAbsent(List.of(r.from(), r.kind()), k -> new ArrayList<>()).add(r));
        for (List<EdgeRow> group : groups.values()) {
            long ends = group.stream().filter(r -> !r.stale()).map(EdgeRow::to).distinct().count();
            for (EdgeRow r : group) {
                boolean want = !r.stale() && ends > 1;
                if (r.conflict() != want) {
                    replace(r, r.next(r.note(), r.evidenceUrl(), want, r.stale(), want ? "conflict" : "conflict-cleared",
                            actor, at));
                }
                if (want) {
                    out.add(Change.CONFLICTS);
                }
            }
        }
        flush();
        return out;
    }

    private void flush() throws SQLException {
        TopologyStore.close(c, closing, at);
        TopologyStore.insert(c, tenant, inserting);
        closing.clear();
        inserting.clear();
    }

    private void add(EdgeRow row) {
        inserting.add(row);
        out.written.add(row);
        out.current.put(row.edgeId(), row);
        touched.add(row.from());
    }

    private void replace(EdgeRow now, EdgeRow next) {
        closing.add(now.versionId());
        add(next);
    }

    private Map<List<Object>, EdgeRow> currentByKeys(List<Want> wants, String source, String origin) throws SQLException {
        Map<List<Object>, EdgeRow> m = new LinkedHashMap<>();
        if (wants.isEmpty()) {
            return m;
        }
        for (EdgeRow r : TopologyStore.currentByKeys(c, tenant, wants.stream().map(w -> w.from().id()).toList(),
                wants.stream().map(Want::kind).toList(), wants.stream().map(w -> w.to().id()).toList(), source, origin)) {
            m.put(List.of(r.from(), r.kind(), r.to()), r);
        }
        return m;
    }
}
