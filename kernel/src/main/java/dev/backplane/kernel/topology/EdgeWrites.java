package dev.backplane.kernel.topology;

import dev.backplane.kernel.topology.WriteOutcome.Change;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * How a set of wanted edges becomes version rows inside one transaction: each edge's current row is
 * closed and its successor inserted only when something changed; afterwards the single-valued kinds
 * leaving the touched nodes are re-decided ({@link Conflicts}), so a curated edge contradicting a
 * discovered one (or two refreshes disagreeing) is flagged as a conflict on both instead of one
 * overwriting the other. The {@link WriteOutcome} carries the counts and the change to apply to the
 * in-memory graph.
 */
final class EdgeWrites {

    /** An edge wanted between two resolved nodes. */
    record Want(TenantGraph.NodeRef from, String kind, TenantGraph.NodeRef to, String note, String evidenceUrl) {
    }

    private final Connection c;
    private final UUID tenant;
    private final String actor;
    private final Instant at;
    private final WriteOutcome out = new WriteOutcome();
    private final List<Long> closing = new ArrayList<>();
    private final List<EdgeRow> inserting = new ArrayList<>();
    private final Set<UUID> touched = new HashSet<>();

    EdgeWrites(Connection c, UUID tenant, String actor, Instant at) {
        this.c = c;
        this.tenant = tenant;
        this.actor = actor;
        this.at = at;
    }

    WriteOutcome outcome() {
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
            String note = EdgeRow.kept(w.note(), now == null ? null : now.note());
            String evidence = EdgeRow.kept(w.evidenceUrl(), now == null ? null : now.evidenceUrl());
            if (now == null) {
                add(EdgeRow.created(w, "curated", "", note, evidence, actor, at));
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

    /**
     * What one refresh of a target saw: new edges are created, edges seen again after being stale are
     * revived, and this target's edges it no longer sees are marked stale (never deleted).
     */
    EdgeWrites observed(String origin, List<Want> seen) throws SQLException {
        Map<List<Object>, EdgeRow> current = new LinkedHashMap<>();
        for (EdgeRow r : TopologyEdgeStore.currentOfOrigin(c, tenant, origin)) {
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
                add(EdgeRow.created(w, "auto", origin, null, null, actor, at));
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
            inserting.add(now.removal(actor, at));
            out.written.add(inserting.getLast());
            out.gone.add(now.edgeId());
            touched.add(now.from());
            out.add(Change.REMOVED);
        }
        return this;
    }

    /** Writes everything, then re-decides the conflict flags of the single-valued kinds it touched. */
    WriteOutcome finish() throws SQLException {
        flush();
        List<EdgeRow> around = touched.isEmpty() ? List.of()
                : TopologyEdgeStore.currentFrom(c, tenant, touched, Vocabulary.SINGLE_VALUED);
        for (var decided : Conflicts.decide(around).entrySet()) {
            EdgeRow r = decided.getKey();
            boolean want = decided.getValue();
            if (r.conflict() != want) {
                replace(r, r.next(r.note(), r.evidenceUrl(), want, r.stale(), want ? "conflict" : "conflict-cleared",
                        actor, at));
            }
            if (want) {
                out.add(Change.CONFLICTS);
            }
        }
        flush();
        return out;
    }

    private void flush() throws SQLException {
        TopologyEdgeStore.close(c, closing, at);
        TopologyEdgeStore.insert(c, tenant, inserting);
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
        for (EdgeRow r : TopologyEdgeStore.currentByKeys(c, tenant, wants.stream().map(w -> w.from().id()).toList(),
                wants.stream().map(Want::kind).toList(), wants.stream().map(w -> w.to().id()).toList(), source, origin)) {
            m.put(List.of(r.from(), r.kind(), r.to()), r);
        }
        return m;
    }
}
