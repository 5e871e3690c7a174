package dev.backplane.kernel.topology;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/**
 * The frame of every topology write: one transaction under the tenant's advisory lock at one instant
 * taken after the lock, the other replicas told on commit, and the outcome applied to this replica's
 * in-memory graph; a dry run answers the same outcome and rolls everything back.
 */
final class TopologyWrites {

    /** Work done in a topology write transaction at one instant. */
    @FunctionalInterface
    interface Work {
        WriteOutcome run(Connection c, Instant at) throws SQLException;
    }

    /** Carries a dry run's outcome out of its transaction, which then rolls back. */
    private static final class DryRun extends RuntimeException {
        final transient WriteOutcome outcome;

        DryRun(WriteOutcome outcome) {
            super("dry run", null, false, false);
            this.outcome = outcome;
        }
    }

    private final TopologyStore store;
    private final TopologyGraphs graphs;

    TopologyWrites(TopologyStore store, TopologyGraphs graphs) {
        this.store = store;
        this.graphs = graphs;
    }

    /** Runs {@code work} as the tenant's write; a {@code dryRun} rolls back and leaves the graph as it was. */
    WriteOutcome write(UUID tenant, boolean dryRun, Work work) {
        return graphs.write(tenant, () -> {
            try {
                return store.inTransaction(c -> {
                    TopologyStore.lockTenant(c, tenant);
                    WriteOutcome o = work.run(c, TopologyStore.writeInstant(c, tenant));
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
}
