package dev.backplane.kernel.topology;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.util.Paging;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads of the edge versions in PostgreSQL: the current edge list with its filters, the graph as it
 * was at two instants and what differs, a node's history and the tenant's timeline of changes. These
 * answer from the version rows (valid-from/valid-to), not from the in-memory graph, which only holds
 * the present.
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

    private final Jdbc jdbc;
    private final NodeResolver resolver;

    TopologyHistory(Jdbc jdbc, NodeResolver resolver) {
        this.jdbc = jdbc;
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
        List<EdgeView> rows = new FilteredSelect("SELECT " + TopologyStore.EDGE_COLUMNS
                + " WHERE e.tenant_id = ? AND e.valid_to IS NULL", tenant)
                .andIf(f.conflicts(), "e.conflict")
                .and("f.name = ?", f.from().map(n -> canonical(tenant, n)))
                .and("t.name = ?", f.to().map(n -> canonical(tenant, n)))
                .and("e.kind = ?", f.kind())
                .and("e.source = ?", f.source())
                .append(" ORDER BY f.name, e.kind, t.name, e.source, e.version_id LIMIT ? OFFSET ?", page.limit() + 1,
                        page.offset())
                .query(jdbc, r -> EdgeView.of(TopologyStore.edge(r)));
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
     * The edges at {@code t1} and at {@code t2} compared by edge: added, removed, changed (note, evidence,
     * conflict or staleness differ) and, unless {@code changedOnly}, unchanged. Only the edges with a version
     * starting or ending in (t1, t2] are compared row by row; the rest are one version valid at both instants,
     * counted (and, unless {@code changedOnly}, listed up to the cap) without loading the whole graph twice.
     */
    public Map<String, Object> diff(UUID tenant, Instant t1, Instant t2, boolean changedOnly, Optional<String> kind) {
        ordered(Optional.of(t1), "t1", Optional.of(t2), "t2");
        kind.ifPresent(Vocabulary::edgeKind);
        Map<UUID, EdgeView> before = at(tenant, t1, t1, t2, kind);
        Map<UUID, EdgeView> after = at(tenant, t2, t1, t2, kind);
        List<DiffEntry> entries = new ArrayList<>();
        Map<String, Integer> counts = new LinkedHashMap<>(Map.of("added", 0, "removed", 0, "changed", 0, "unchanged", 0));
        for (var e : after.entrySet()) {
            EdgeView was = before.get(e.getKey());
            String status = was == null ? "added" : same(was, e.getValue()) ? "unchanged" : "changed";
            counts.merge(status, 1, Integer::sum);
            if (!(changedOnly && status.equals("unchanged"))) {
                entries.add(new DiffEntry(status, was, e.getValue()));
            }
        }
        for (var e : before.entrySet()) {
            if (!after.containsKey(e.getKey())) {
                counts.merge("removed", 1, Integer::sum);
                entries.add(new DiffEntry("removed", e.getValue(), null));
            }
        }
        String untouched = " WHERE e.tenant_id = ? AND e.valid_from <= ? AND (e.valid_to IS NULL OR e.valid_to > ?)"
                + (kind.isPresent() ? " AND e.kind = ?" : "");
        List<Object> params = new ArrayList<>(List.of(tenant, TopologyStore.ts(t1), TopologyStore.ts(t2)));
        kind.ifPresent(params::add);
        long same = jdbc.queryOne("SELECT count(*) FROM topology_edges e" + untouched, r -> r.getLong(1),
                params.toArray()).orElse(0L);
        counts.merge("unchanged", (int) same, Integer::sum);
        if (!changedOnly && same > 0 && entries.size() <= DIFF_MAX) {
            params.add(DIFF_MAX + 1 - entries.size());
            jdbc.query("SELECT " + TopologyStore.EDGE_COLUMNS + untouched + " ORDER BY e.version_id LIMIT ?",
                    r -> EdgeView.of(TopologyStore.edge(r)), params.toArray())
                    .forEach(v -> entries.add(new DiffEntry("unchanged", v, v)));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("t1", t1);
        out.put("t2", t2);
        out.put("counts", counts);
        out.put("edges", entries.subList(0, Math.min(entries.size(), DIFF_MAX)));
        out.put("truncated", entries.size() > DIFF_MAX);
        return out;
    }

    private static boolean same(EdgeView a, EdgeView b) {
        return java.util.Objects.equals(a.note(), b.note()) && java.util.Objects.equals(a.evidenceUrl(), b.evidenceUrl())
                && a.conflict() == b.conflict() && a.stale() == b.stale();
    }

    /** One edge of a diff: added (no before), removed (no after), changed or unchanged. */
    public record DiffEntry(String status, EdgeView before, EdgeView after) {
    }

    /** The versions valid at {@code t} of the edges with a version starting or ending in (from, to]. */
    private Map<UUID, EdgeView> at(UUID tenant, Instant t, Instant from, Instant to, Optional<String> kind) {
        Map<UUID, EdgeView> out = new LinkedHashMap<>();
        String sql = "SELECT " + TopologyStore.EDGE_COLUMNS + " WHERE e.tenant_id = ? AND e.valid_from <= ? "
                + "AND (e.valid_to IS NULL OR e.valid_to > ?)" + (kind.isPresent() ? " AND e.kind = ?" : "")
                + " AND e.edge_id IN (SELECT x.edge_id FROM topology_edges x WHERE x.tenant_id = ?"
                + " AND ((x.valid_from > ? AND x.valid_from <= ?) OR (x.valid_to > ? AND x.valid_to <= ?)))"
                + " ORDER BY e.version_id";
        List<Object> params = new ArrayList<>(List.of(tenant, TopologyStore.ts(t), TopologyStore.ts(t)));
        kind.ifPresent(params::add);
        params.addAll(List.of(tenant, TopologyStore.ts(from), TopologyStore.ts(to), TopologyStore.ts(from),
                TopologyStore.ts(to)));
        jdbc.query(sql, r -> EdgeView.of(TopologyStore.edge(r)), params.toArray()).forEach(v -> out.put(v.edgeId(), v));
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
        List<Map<String, Object>> entries = new ArrayList<>(jdbc.query("""
                SELECT id, kind, name, created_by, created_at FROM topology_nodes
                WHERE tenant_id = ? AND id = ANY(?::uuid[]) AND created_at >= ? AND created_at <= ?""", rs -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("at", rs.getTimestamp("created_at").toInstant());
            m.put("change", "node-created");
            m.put("node", Map.of("kind", rs.getString("kind"), "name", rs.getString("name")));
            m.put("changed_by", rs.getString("created_by"));
            return m;
        }, tenant, ids.stream().map(UUID::toString).toArray(String[]::new), TopologyStore.ts(since.orElse(Instant.EPOCH)),
                TopologyStore.ts(until.orElse(dev.backplane.kernel.util.Times.LATEST))));
        if (includeEdges) {
            jdbc.query("SELECT " + TopologyStore.EDGE_COLUMNS + """
                     WHERE e.tenant_id = ? AND (e.from_node = ANY(?::uuid[]) OR e.to_node = ANY(?::uuid[]))
                       AND e.valid_from >= ? AND e.valid_from <= ? ORDER BY e.version_id DESC LIMIT ?""", r -> {
                EdgeView v = EdgeView.of(TopologyStore.edge(r));
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("at", v.validFrom());
                m.put("change", "edge-" + v.change());
                m.put("edge", v);
                m.put("changed_by", v.changedBy());
                return m;
            }, tenant, ids.stream().map(UUID::toString).toArray(String[]::new),
                    ids.stream().map(UUID::toString).toArray(String[]::new), TopologyStore.ts(since.orElse(Instant.EPOCH)),
                    TopologyStore.ts(until.orElse(dev.backplane.kernel.util.Times.LATEST)), limit).forEach(entries::add);
        }
        // newest first; a node's creation comes after (below) the edge written in the same instant
        entries.sort(java.util.Comparator.<Map<String, Object>, Instant>comparing(e -> (Instant) e.get("at")).reversed()
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
        List<TenantGraph.NodeRef> found = jdbc.query("SELECT id, kind, name FROM topology_nodes WHERE tenant_id = ? "
                + "AND name = ? ORDER BY kind", TopologyStore::node, tenant, canonical);
        int colon = name.indexOf(':');
        if (found.isEmpty() && colon > 0) {
            found = jdbc.query("SELECT id, kind, name FROM topology_nodes WHERE tenant_id = ? AND kind = ? AND name = ?",
                    TopologyStore::node, tenant, name.substring(0, colon), name.substring(colon + 1));
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
        StringBuilder sql = new StringBuilder("SELECT " + TopologyStore.EDGE_COLUMNS
                + " WHERE e.tenant_id = ? AND e.version_id < ? AND e.valid_from >= ? AND e.valid_from <= ?");
        List<Object> params = new ArrayList<>(List.of(tenant, before, TopologyStore.ts(since.orElse(Instant.EPOCH)),
                TopologyStore.ts(until.orElse(dev.backplane.kernel.util.Times.LATEST))));
        if (target.isPresent()) {
            Optional<Target> t = resolver.target(tenant, Vocabulary.nodeName(target.get(), "target"));
            if (t.isEmpty()) {
                throw TopologyErrors.NODE_NOT_FOUND.error("no target is named '" + target.get() + "'",
                        Map.of("target", target.get()));
            }
            sql.append(" AND (e.origin = ? OR (f.kind = 'target' AND f.name = ?) OR (t.kind = 'target' AND t.name = ?))");
            params.addAll(List.of(t.get().id().toString(), t.get().name(), t.get().name()));
        }
        sql.append(" ORDER BY e.version_id DESC LIMIT ?");
        params.add(limit);
        List<EdgeView> rows = jdbc.query(sql.toString(), r -> EdgeView.of(TopologyStore.edge(r)), params.toArray());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("changes", rows);
        out.put("next_cursor", rows.size() == limit ? String.valueOf(rows.getLast().version()) : null);
        return out;
    }

    static Optional<TopologyStore.EdgeRow> currentById(Connection c, UUID tenant, UUID edgeId) throws SQLException {
        return Jdbc.query(c, "SELECT " + TopologyStore.EDGE_COLUMNS + " WHERE e.tenant_id = ? AND e.edge_id = ? "
                + "AND e.valid_to IS NULL", TopologyStore::edge, tenant, edgeId).stream().findFirst();
    }

    /** A range whose end lies before its start is a mistake, not an empty answer: 422 {@code invalid_time}. */
    private static void ordered(Optional<Instant> start, String startName, Optional<Instant> end, String endName) {
        if (start.isPresent() && end.isPresent() && start.get().isAfter(end.get())) {
            throw CommonErrors.INVALID_TIME.error(startName + " (" + start.get() + ") is after " + endName + " ("
                    + end.get() + ")", Map.of("field", endName));
        }
    }
}
