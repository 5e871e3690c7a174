package dev.backplane.kernel.topology;

import static dev.backplane.kernel.topology.TopologyStore.array;
import static dev.backplane.kernel.topology.TopologyStore.ts;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The SQL of the current edge versions on a write's connection: the current rows a write decides on, and
 * closing and inserting version rows in sets ({@code unnest}), so a bulk import of 100k edges is a
 * handful of statements, not 100k. Every statement runs under the tenant's lock taken by the caller.
 */
final class TopologyEdgeStore {

    static final String EDGE_COLUMNS = """
            e.version_id, e.edge_id, e.from_node, f.kind AS from_kind, f.name AS from_name, e.kind, e.to_node,
            t.kind AS to_kind, t.name AS to_name, e.source, e.origin, e.note, e.evidence_url, e.conflict, e.stale,
            e.change, e.changed_by, e.valid_from, e.valid_to
            FROM topology_edges e JOIN topology_nodes f ON f.id = e.from_node JOIN topology_nodes t ON t.id = e.to_node""" + " ";

    private TopologyEdgeStore() {
    }

    static EdgeRow edge(ResultSet rs) throws SQLException {
        Timestamp to = rs.getTimestamp("valid_to");
        return new EdgeRow(rs.getLong("version_id"), rs.getObject("edge_id", UUID.class),
                rs.getObject("from_node", UUID.class), rs.getString("from_kind"), rs.getString("from_name"),
                rs.getString("kind"), rs.getObject("to_node", UUID.class), rs.getString("to_kind"),
                rs.getString("to_name"), rs.getString("source"), rs.getString("origin"), rs.getString("note"),
                rs.getString("evidence_url"), rs.getBoolean("conflict"), rs.getBoolean("stale"), rs.getString("change"),
                rs.getString("changed_by"), rs.getTimestamp("valid_from").toInstant(), to == null ? null : to.toInstant());
    }

    /** Current rows of the given (from, kind, to, source, origin) keys. */
    static List<EdgeRow> currentByKeys(Connection c, UUID tenant, List<UUID> froms, List<String> kinds, List<UUID> tos,
                                       String source, String origin) throws SQLException {
        return Jdbc.query(c, "SELECT " + EDGE_COLUMNS + """
                 JOIN unnest(?::uuid[], ?::text[], ?::uuid[]) AS k(f, kd, t)
                  ON e.from_node = k.f AND e.kind = k.kd AND e.to_node = k.t
                WHERE e.tenant_id = ? AND e.valid_to IS NULL AND e.source = ? AND e.origin = ?""", TopologyEdgeStore::edge,
                array(c, "uuid", froms), array(c, "text", kinds), array(c, "uuid", tos), tenant, source, origin);
    }

    /** The current curated row of a wanted edge, if any. */
    static Optional<EdgeRow> currentCurated(Connection c, UUID tenant, EdgeWrites.Want w) throws SQLException {
        return currentByKeys(c, tenant, List.of(w.from().id()), List.of(w.kind()), List.of(w.to().id()), "curated", "")
                .stream().findFirst();
    }

    /** Current rows of single-valued kinds leaving these nodes (where conflicts are decided). */
    static List<EdgeRow> currentFrom(Connection c, UUID tenant, Collection<UUID> froms, Collection<String> kinds)
            throws SQLException {
        return Jdbc.query(c, "SELECT " + EDGE_COLUMNS + """
                 WHERE e.tenant_id = ? AND e.valid_to IS NULL AND e.from_node = ANY(?) AND e.kind = ANY(?)""",
                TopologyEdgeStore::edge, tenant, array(c, "uuid", froms), array(c, "text", kinds));
    }

    /** Current auto rows a target's refreshes wrote. */
    static List<EdgeRow> currentOfOrigin(Connection c, UUID tenant, String origin) throws SQLException {
        return Jdbc.query(c, "SELECT " + EDGE_COLUMNS + " WHERE e.tenant_id = ? AND e.valid_to IS NULL "
                + "AND e.source = 'auto' AND e.origin = ?", TopologyEdgeStore::edge, tenant, origin);
    }

    /** The current row of an edge, by its id. */
    static Optional<EdgeRow> currentById(Connection c, UUID tenant, UUID edgeId) throws SQLException {
        return Jdbc.query(c, "SELECT " + EDGE_COLUMNS + " WHERE e.tenant_id = ? AND e.edge_id = ? "
                + "AND e.valid_to IS NULL", TopologyEdgeStore::edge, tenant, edgeId).stream().findFirst();
    }

    /** Closes current rows (their successors, if any, are inserted by {@link #insert}). */
    static void close(Connection c, List<Long> versionIds, Instant at) throws SQLException {
        for (int from = 0; from < versionIds.size(); from += 10_000) {
            List<Long> part = versionIds.subList(from, Math.min(versionIds.size(), from + 10_000));
            Jdbc.update(c, "UPDATE topology_edges SET valid_to = ? WHERE version_id = ANY(?)", ts(at),
                    array(c, "int8", part));
        }
    }

    /** Inserts new version rows; a row with {@code validTo} set is a removal marker. */
    static void insert(Connection c, UUID tenant, List<EdgeRow> rows) throws SQLException {
        for (int from = 0; from < rows.size(); from += 10_000) {
            List<EdgeRow> part = rows.subList(from, Math.min(rows.size(), from + 10_000));
            Jdbc.update(c, """
                    INSERT INTO topology_edges (edge_id, tenant_id, from_node, kind, to_node, source, origin, note,
                           evidence_url, conflict, stale, change, changed_by, valid_from, valid_to)
                    SELECT r.edge_id, ?, r.from_node, r.kind, r.to_node, r.source, r.origin, r.note, r.evidence_url,
                           r.conflict, r.stale, r.change, r.changed_by, r.valid_from, r.valid_to
                    FROM unnest(?::uuid[], ?::uuid[], ?::text[], ?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[],
                                ?::boolean[], ?::boolean[], ?::text[], ?::text[], ?::text[]::timestamptz[], ?::text[]::timestamptz[])
                         AS r(edge_id, from_node, kind, to_node, source, origin, note, evidence_url, conflict, stale,
                              change, changed_by, valid_from, valid_to)""", tenant,
                    array(c, "uuid", part.stream().map(EdgeRow::edgeId).toList()),
                    array(c, "uuid", part.stream().map(EdgeRow::from).toList()),
                    array(c, "text", part.stream().map(EdgeRow::kind).toList()),
                    array(c, "uuid", part.stream().map(EdgeRow::to).toList()),
                    array(c, "text", part.stream().map(EdgeRow::source).toList()),
                    array(c, "text", part.stream().map(EdgeRow::origin).toList()),
                    array(c, "text", part.stream().map(EdgeRow::note).toList()),
                    array(c, "text", part.stream().map(EdgeRow::evidenceUrl).toList()),
                    array(c, "bool", part.stream().map(EdgeRow::conflict).toList()),
                    array(c, "bool", part.stream().map(EdgeRow::stale).toList()),
                    array(c, "text", part.stream().map(EdgeRow::change).toList()),
                    array(c, "text", part.stream().map(EdgeRow::changedBy).toList()),
                    array(c, "text", part.stream().map(r -> r.validFrom().toString()).toList()),
                    array(c, "text", part.stream().map(r -> r.validTo() == null ? null : r.validTo().toString()).toList()));
        }
    }
}
