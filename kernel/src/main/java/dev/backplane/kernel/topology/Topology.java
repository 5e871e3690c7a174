package dev.backplane.kernel.topology;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.dispatch.Dispatcher;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.results.ResultQueryService;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.topology.WriteOutcome.Change;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The topology graph's writes: curated edges (annotate, unannotate, bulk import with a dry run that
 * writes nothing) and auto edges from discovery ({@link #refresh}, done by {@code DiscoveryRefresh});
 * {@link #traversals()} answers dependencies, dependents and paths from the tenant's in-memory graph.
 * Every write is one transaction under the tenant's advisory lock ({@code TopologyWrites}); the history
 * it leaves is read by {@link TopologyHistory}.
 */
public final class Topology {

    public static final int BULK_MAX_EDGES = 100_000;
    public static final int BULK_MAX_BYTES = 32 << 20;
    /** Who discovery's calls run as (their audit rows name it). */
    public static final String DISCOVERY_PRINCIPAL = "svc-system:topology-discovery";

    /** The body of an unannotate: an edge id, or the edge's ends and kind. */
    public record Unannotate(UUID edgeId, String from, String fromKind, String kind, String to, String toKind) {
    }

    /** The body of a bulk import. */
    public record Bulk(List<EdgeInput> edges, Boolean dryRun) {
    }

    private final TopologyStore store;
    private final TopologyWrites writes;
    private final WantedEdges wanted;
    private final AuditLog audit;
    private final DiscoveryRefresh discovery;
    private final TopologyHistory history;
    private final Traversals traversals;

    private Topology(TopologyStore store, TopologyGraphs graphs, NodeResolver resolver, AuditLog audit,
                     List<Discovery> discoveries) {
        this.store = store;
        this.writes = new TopologyWrites(store, graphs);
        this.wanted = new WantedEdges(resolver);
        this.audit = audit;
        this.discovery = new DiscoveryRefresh(store, writes, resolver, discoveries);
        this.history = new TopologyHistory(new TopologyHistoryStore(store.jdbc()), resolver);
        this.traversals = new Traversals(graphs, resolver);
    }

    /** The topology of a kernel: discovery reads Kubernetes and Keycloak targets through {@code dispatcher}. */
    public static Topology create(Jdbc jdbc, ChangeFeed feed, TargetService targets, AuditLog audit, Dispatcher dispatcher,
                                  ResultQueryService results, CatalogService catalog) {
        TopologyStore store = new TopologyStore(jdbc);
        DiscoveryCalls calls = new DiscoveryCalls(dispatcher, results);
        return new Topology(store, new TopologyGraphs(store, feed), new NodeResolver(targets), audit,
                List.of(new K8sDiscovery(calls), new KeycloakDiscovery(calls, catalog), new DnsDiscovery(calls)));
    }

    /** Dependencies, dependents and paths on the in-memory graph. */
    public Traversals traversals() {
        return traversals;
    }

    /** The reads of past versions: edge list, diff, history, timeline. */
    public TopologyHistory history() {
        return history;
    }

    /** Adds a curated edge, or changes its note and evidence URL; creates nodes named with a kind. */
    public Map<String, Object> annotate(Caller caller, EdgeInput in) {
        List<DomainException> problems = in.problems();
        if (!problems.isEmpty()) {
            throw problems.getFirst();
        }
        List<EdgeWrites.Want> resolved = new ArrayList<>();
        WriteOutcome o = writes.write(caller.tenantId(), false, (c, at) -> {
            resolved.addAll(wanted.curated(c, caller.tenantId(), caller.sub(), List.of(in), at, new ArrayList<>(), true));
            return new EdgeWrites(c, caller.tenantId(), caller.sub(), at).curated(resolved).finish();
        });
        EdgeWrites.Want w = resolved.getFirst();
        String change = o.count(Change.CREATED) > 0 ? "created" : o.count(Change.UPDATED) > 0 ? "updated" : "unchanged";
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("change", change);
        out.put("edge", store.inTransaction(c -> TopologyEdgeStore.currentCurated(c, caller.tenantId(), w))
                .map(EdgeView::of).orElse(null)); // null only if removed again meanwhile
        out.put("conflicts", o.count(Change.CONFLICTS));
        return out;
    }

    /** Removes a curated edge (by id, or by its ends and kind); auto edges belong to discovery. */
    public Map<String, Object> unannotate(Caller caller, Unannotate in) {
        UUID tenant = caller.tenantId();
        List<EdgeRow> removed = new ArrayList<>();
        writes.write(tenant, false, (c, at) -> {
            EdgeRow row = in.edgeId() != null ? TopologyEdgeStore.currentById(c, tenant, in.edgeId())
                    .orElseThrow(() -> TopologyErrors.EDGE_NOT_FOUND.error("no current edge has id " + in.edgeId()))
                    : byEnds(c, caller, in, at);
            if (!row.source().equals("curated")) {
                throw TopologyErrors.INVALID_EDGE.error("edge " + row.edgeId() + " was discovered (source auto); "
                        + "discovery marks it stale when it is no longer seen, unannotate removes curated edges only",
                        Map.of("edge_id", row.edgeId().toString()));
            }
            removed.add(row);
            return new EdgeWrites(c, tenant, caller.sub(), at).remove(List.of(row)).finish();
        });
        return Map.of("removed", EdgeView.of(removed.getFirst()));
    }

    private EdgeRow byEnds(Connection c, Caller caller, Unannotate in, Instant at) throws SQLException {
        EdgeInput e = new EdgeInput(in.from(), in.fromKind(), in.kind(), in.to(), in.toKind(), null, null);
        List<DomainException> problems = e.problems();
        if (!problems.isEmpty()) {
            throw problems.getFirst();
        }
        EdgeWrites.Want w = wanted.curated(c, caller.tenantId(), caller.sub(), List.of(e), at, new ArrayList<>(), true)
                .getFirst();
        return TopologyEdgeStore.currentCurated(c, caller.tenantId(), w).orElseThrow(() ->
                TopologyErrors.EDGE_NOT_FOUND.error("no curated edge " + in.from() + " " + in.kind() + " " + in.to()));
    }

    /**
     * Imports curated edges: every line is checked first and any problem refuses the whole import (all
     * problems listed, nothing written); a dry run answers the same plan and writes nothing — no rows, no
     * audit row, no notification. An applied import writes its own audit row in its transaction.
     */
    public Map<String, Object> bulk(Caller caller, Bulk in) {
        if (in == null || in.edges() == null) {
            throw CommonErrors.INVALID_BODY.error("give edges: a list of {from, kind, to, from_kind, to_kind, note, "
                    + "evidence_url}", Map.of("field", "edges"));
        }
        if (in.edges().size() > BULK_MAX_EDGES) {
            throw TopologyErrors.TOO_MANY_EDGES.error("a bulk import takes at most " + BULK_MAX_EDGES + " edges, got "
                    + in.edges().size(), Map.of("field", "edges", "max", BULK_MAX_EDGES));
        }
        List<Map<String, Object>> problems = WantedEdges.problems(in.edges());
        boolean dryRun = Boolean.TRUE.equals(in.dryRun());
        WriteOutcome o = writes.write(caller.tenantId(), dryRun, (c, at) -> {
            List<EdgeWrites.Want> wants = wanted.curated(c, caller.tenantId(), caller.sub(), in.edges(), at, problems,
                    false);
            WriteOutcome outcome = new EdgeWrites(c, caller.tenantId(), caller.sub(), at).curated(wants).finish();
            if (!dryRun) {
                audit.recordIn(c, AuditLog.Entry.by(caller, AuditClass.WRITE, "svc.topology.bulk-import"), "ok", Optional.empty(),
                        Map.of("edges", in.edges().size(), "counts", outcome.counts()));
            }
            return outcome;
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("dry_run", dryRun);
        out.put("edges", in.edges().size());
        out.put(dryRun ? "plan" : "result", o.counts());
        return out;
    }

    /**
     * Reads a target through its connector's read operations (dispatch pipeline, as the discovery
     * principal) and writes what it saw as auto edges; edges of this target no longer seen go stale.
     */
    public Map<String, Object> refresh(UUID tenant, String targetName, String requestedBy) {
        return discovery.refresh(tenant, targetName, requestedBy);
    }

    /** The scheduled refresh of every discoverable target not refreshed within {@code every} (see {@code DiscoveryRefresh}). */
    public int refreshDue(Duration every) {
        return discovery.refreshDue(every);
    }

    /** Deletes history older than the retention. */
    public int sweep(Duration retention) {
        return store.sweep(retention);
    }

    /**
     * Refreshing due targets' discovered topology every {@code refresh} (never when it is zero), and deleting history
     * older than {@code retention}.
     */
    public List<PeriodicJob> periodicJobs(Duration refresh, Duration retention) {
        return List.of(new PeriodicJob("topology-refresh", Duration.ofMinutes(1),
                        () -> refresh.isZero() ? 0 : refreshDue(refresh)),
                new PeriodicJob("topology-history-sweep", Duration.ofHours(1), () -> sweep(retention)));
    }
}
