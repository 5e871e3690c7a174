package dev.backplane.kernel.topology;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.dispatch.Dispatcher;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.results.ResultQueryService;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.targets.TargetService;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The topology graph's writes: curated edges (annotate, unannotate, bulk import with a dry run that
 * writes nothing) and auto edges from discovery ({@link #refresh}); {@link #traversals()} answers
 * dependencies, dependents and paths from the tenant's in-memory graph. Every write is one transaction
 * under the tenant's advisory lock; the history it leaves is read by {@link TopologyHistory}.
 */
public final class Topology {

    public static final int BULK_MAX_EDGES = 100_000;
    public static final int BULK_MAX_BYTES = 32 << 20;
    private static final int MAX_PROBLEMS = 100;
    /** Who discovery's calls run as (their audit rows name it). */
    public static final String DISCOVERY_PRINCIPAL = "svc-system:topology-discovery";

    /** The body of an unannotate: an edge id, or the edge's ends and kind. */
    public record Unannotate(UUID edgeId, String from, String fromKind, String kind, String to, String toKind) {
    }

    /** The body of a bulk import. */
    public record Bulk(List<EdgeInput> edges, Boolean dryRun) {
    }

    private final TopologyStore store;
    private final TopologyGraphs graphs;
    private final NodeResolver resolver;
    private final AuditLog audit;
    private final List<Discovery> discoveries;

    private final TopologyHistory history;
    private final Traversals traversals;

    private Topology(TopologyStore store, TopologyGraphs graphs, NodeResolver resolver, AuditLog audit,
                     List<Discovery> discoveries) {
        this.store = store;
        this.graphs = graphs;
        this.resolver = resolver;
        this.audit = audit;
        this.discoveries = discoveries;
        this.history = new TopologyHistory(store.jdbc(), resolver);
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
        EdgeWrites.Outcome o = write(caller.tenantId(), false, (c, at) -> {
            resolved.addAll(wants(c, caller, List.of(in), at, new ArrayList<>(), true));
            return new EdgeWrites(c, caller.tenantId(), caller.sub(), at).curated(resolved).finish();
        });
        EdgeWrites.Want w = resolved.getFirst();
        String change = o.count(EdgeWrites.Change.CREATED) > 0 ? "created"
                : o.count(EdgeWrites.Change.UPDATED) > 0 ? "updated" : "unchanged";
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("change", change);
        out.put("edge", store.jdbc().inTransaction(c -> TopologyStore.currentByKeys(c, caller.tenantId(),
                List.of(w.from().id()), List.of(w.kind()), List.of(w.to().id()), "curated", "")).stream()
                .map(EdgeView::of).findFirst().orElse(null)); // null only if removed again meanwhile
        out.put("conflicts", o.count(EdgeWrites.Change.CONFLICTS));
        return out;
    }

    /** Removes a curated edge (by id, or by its ends and kind); auto edges belong to discovery. */
    public Map<String, Object> unannotate(Caller caller, Unannotate in) {
        UUID tenant = caller.tenantId();
        List<TopologyStore.EdgeRow> removed = new ArrayList<>();
        write(tenant, false, (c, at) -> {
            TopologyStore.EdgeRow row = in.edgeId() != null ? TopologyHistory.currentById(c, tenant, in.edgeId())
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

    private TopologyStore.EdgeRow byEnds(Connection c, Caller caller, Unannotate in, Instant at) throws SQLException {
        EdgeInput e = new EdgeInput(in.from(), in.fromKind(), in.kind(), in.to(), in.toKind(), null, null);
        List<DomainException> problems = e.problems();
        if (!problems.isEmpty()) {
            throw problems.getFirst();
        }
        EdgeWrites.Want w = wants(c, caller, List.of(e), at, new ArrayList<>(), true).getFirst();
        return TopologyStore.currentByKeys(c, caller.tenantId(), List.of(w.from().id()), List.of(w.kind()),
                List.of(w.to().id()), "curated", "").stream().findFirst().orElseThrow(() ->
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
        List<Map<String, Object>> problems = new ArrayList<>();
        for (int i = 0; i < in.edges().size(); i++) {
            EdgeInput e = in.edges().get(i);
            if (e == null) {
                problems.add(problem(i, CommonErrors.INVALID_BODY.error("edge is null")));
                continue;
            }
            for (DomainException p : e.problems()) {
                problems.add(problem(i, p));
            }
        }
        boolean dryRun = Boolean.TRUE.equals(in.dryRun());
        EdgeWrites.Outcome o = write(caller.tenantId(), dryRun, (c, at) -> {
            List<EdgeWrites.Want> wants = wants(c, caller, in.edges(), at, problems, false);
            EdgeWrites.Outcome outcome = new EdgeWrites(c, caller.tenantId(), caller.sub(), at).curated(wants).finish();
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

    private static Map<String, Object> problem(int index, DomainException e) {
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

    private static void refuse(List<Map<String, Object>> problems, int total) {
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
    private List<EdgeWrites.Want> wants(Connection c, Caller caller, List<EdgeInput> edges, Instant at,
                                        List<Map<String, Object>> problems, boolean single) throws SQLException {
        Set<Object> bad = new java.util.HashSet<>();
        problems.forEach(p -> bad.add(p.get("index")));
        Set<NodeResolver.Ref> refs = new LinkedHashSet<>();
        for (int i = 0; i < edges.size(); i++) {
            if (!bad.contains(i)) {
                refs.add(edges.get(i).fromRef());
                refs.add(edges.get(i).toRef());
            }
        }
        Map<NodeResolver.Ref, DomainException> failed = new LinkedHashMap<>();
        Map<NodeResolver.Ref, TenantGraph.NodeRef> nodes = resolver.resolve(c, caller.tenantId(), refs, caller.sub(), at,
                failed);
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
        problems.sort(java.util.Comparator.comparing(p -> (Integer) p.get("index")));
        refuse(problems, edges.size());
        return wants;
    }

    /** Work done in a topology write transaction at one instant. */
    @FunctionalInterface
    private interface Work {
        EdgeWrites.Outcome run(Connection c, Instant at) throws SQLException;
    }

    /** Carries a dry run's outcome out of its transaction, which then rolls back. */
    private static final class DryRun extends RuntimeException {
        final transient EdgeWrites.Outcome outcome;

        DryRun(EdgeWrites.Outcome outcome) {
            super("dry run", null, false, false);
            this.outcome = outcome;
        }
    }

    private EdgeWrites.Outcome write(UUID tenant, boolean dryRun, Work work) {
        return graphs.write(tenant, () -> {
            try {
                return store.jdbc().inTransaction(c -> {
                    TopologyStore.lockTenant(c, tenant);
                    EdgeWrites.Outcome o = work.run(c, TopologyStore.writeInstant(c, tenant));
                    if (dryRun) {
                        throw new DryRun(o);
                    }
                    graphs.notifyIn(c, tenant);
                    return o;
                });
            } catch (DryRun d) {
                return d.outcome;
            }
        }, o -> dryRun ? g -> { } : o.graphChange());
    }

    // ------------------------------------------------------------------------------------------------
    // discovery
    // ------------------------------------------------------------------------------------------------

    /**
     * Reads a target through its connector's read operations (dispatch pipeline, as the discovery
     * principal) and writes what it saw as auto edges; edges of this target no longer seen go stale.
     */
    public Map<String, Object> refresh(UUID tenant, String targetName, String requestedBy) {
        Target t = resolver.target(tenant, targetName).orElseThrow(() -> TopologyErrors.NODE_NOT_FOUND.error(
                "no target is named '" + targetName + "'", Map.of("target", targetName)));
        Discovery d = discoveries.stream().filter(x -> x.product().equals(t.product())).findFirst().orElseThrow(() ->
                TopologyErrors.REFRESH_UNSUPPORTED.error("no discovery reads targets of product " + t.product()
                        + " yet (Kubernetes and Keycloak targets are discovered)", Map.of("target", t.name(), "product", t.product())));
        Caller system = new Caller(DISCOVERY_PRINCIPAL, Optional.empty(), Optional.of(tenant), tenant, Role.OPERATOR,
                false, PrincipalKind.HUMAN, Optional.empty());
        List<Seen> seen = d.observe(system, t);
        EdgeWrites.Outcome o = write(tenant, false, (c, at) -> {
            Set<NodeResolver.Ref> refs = new LinkedHashSet<>();
            seen.forEach(s -> {
                refs.add(new NodeResolver.Ref(s.from().name(), s.from().kind()));
                refs.add(new NodeResolver.Ref(s.to().name(), s.to().kind()));
            });
            Map<NodeResolver.Ref, DomainException> failed = new LinkedHashMap<>();
            Map<NodeResolver.Ref, TenantGraph.NodeRef> nodes = resolver.resolve(c, tenant, refs, requestedBy, at, failed);
            List<EdgeWrites.Want> wants = new ArrayList<>();
            for (Seen s : seen) {
                TenantGraph.NodeRef from = nodes.get(new NodeResolver.Ref(s.from().name(), s.from().kind()));
                TenantGraph.NodeRef to = nodes.get(new NodeResolver.Ref(s.to().name(), s.to().kind()));
                if (from != null && to != null && !from.id().equals(to.id())) {
                    wants.add(new EdgeWrites.Want(from, s.kind(), to, null, null));
                }
            }
            EdgeWrites.Outcome outcome = new EdgeWrites(c, tenant, requestedBy, at).observed(t.id().toString(), wants)
                    .finish();
            TopologyStore.refreshed(c, tenant, t.id(), "ok", at);
            return outcome;
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("target", t.name());
        out.put("seen", seen.size());
        out.put("result", o.counts());
        return out;
    }

    /**
     * The scheduled refresh: every discoverable target not refreshed within {@code every}, oldest first. A
     * target whose refresh fails in any way (a refused read, a database error, a bug in a discovery) is
     * logged and recorded as refreshed with its failure, so it waits one interval and the others proceed.
     */
    public int refreshDue(java.time.Duration every) {
        int done = 0;
        for (TopologyStore.DueTarget due : store.dueTargets(every, discoveryProducts())) {
            try {
                refresh(due.tenant(), due.name(), DISCOVERY_PRINCIPAL);
                done++;
            } catch (RuntimeException e) {
                String why = e instanceof DomainException || e instanceof Jdbc.DataAccessException ? e.getMessage()
                        : e.getClass().getName() + ": " + e.getMessage();
                System.getLogger(Topology.class.getName()).log(System.Logger.Level.WARNING, "topology refresh of "
                        + due.name() + " (tenant " + due.tenant() + ") failed: " + why, e);
                recordFailure(due, why);
            }
        }
        return done;
    }

    private void recordFailure(TopologyStore.DueTarget due, String why) {
        try {
            store.jdbc().inTransaction(c -> {
                TopologyStore.refreshed(c, due.tenant(), due.targetId(), "failed: " + why, null);
                return null;
            });
        } catch (RuntimeException e) {
            System.getLogger(Topology.class.getName()).log(System.Logger.Level.WARNING, "could not record the failed "
                    + "topology refresh of " + due.name() + " (tenant " + due.tenant() + ")", e);
        }
    }

    private List<String> discoveryProducts() {
        return discoveries.stream().map(Discovery::product).toList();
    }

    /** Deletes history older than the retention. */
    public int sweep(java.time.Duration retention) {
        return store.sweep(retention);
    }

    /**
     * Refreshing due targets' discovered topology every {@code refresh} (never when it is zero), and deleting history
     * older than {@code retention}.
     */
    public List<PeriodicJob> periodicJobs(java.time.Duration refresh, java.time.Duration retention) {
        return List.of(new PeriodicJob("topology-refresh", java.time.Duration.ofMinutes(1),
                        () -> refresh.isZero() ? 0 : refreshDue(refresh)),
                new PeriodicJob("topology-history-sweep", java.time.Duration.ofHours(1), () -> sweep(retention)));
    }
}
