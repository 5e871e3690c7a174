/**
 * The topology graph of each tenant: nodes and versioned edges ({@code topology_nodes}, {@code topology_edges},
 * {@code topology_refreshes}), curated (annotate, bulk import) or discovered, with conflicts flagged rather than
 * overwritten and edges no longer seen marked stale. {@link dev.backplane.kernel.topology.Topology} does every
 * write (annotate, unannotate, bulk import, refresh) in one transaction under the tenant's advisory lock; {@link
 * dev.backplane.kernel.topology.Traversals} answers dependencies, dependents and paths from a per-replica in-memory
 * JGraphT graph kept current through the change feed, and {@link dev.backplane.kernel.topology.TopologyHistory}
 * answers the edge list, diffs, node history and timeline from the version rows. Discovery of Kubernetes, Keycloak
 * and DNS targets reads them through the dispatch pipeline as {@code svc-system:topology-discovery}, never a plugin
 * directly, on a tenant_admin's refresh or, when configured, on a schedule. {@link
 * dev.backplane.kernel.topology.TopologyRoutes} stay thin. The SQL lives in the stores: {@code TopologyStore} (a write's
 * lock and instant, the graph's load, refresh bookkeeping, the sweep), {@code TopologyNodeStore}, {@code
 * TopologyEdgeStore} and {@code TopologyHistoryStore}.
 */
package dev.backplane.kernel.topology;
