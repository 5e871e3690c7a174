package dev.backplane.kernel.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.TestKernel;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The in-memory graphs against the kernel's real PostgreSQL and change feed, in the interleavings a review
 * found them diverging in: a write that throws after its transaction committed, a reload landing between a
 * local write's commit and its apply, and a change-feed drop while a traversal holds the graph.
 */
@KernelTest
class TopologyGraphsIT {

    private static TestKernel kernel;
    private final UUID tenant = UUID.randomUUID();

    private Jdbc jdbc() {
        return kernel.jdbc();
    }

    /** Commits a curated edge a→b in its own transaction and answers the change a local write would apply. */
    private WriteOutcome commitEdge(String a, String b) {
        return jdbc().inTransaction(c -> {
            Instant at = TopologyStore.writeInstant(c, tenant);
            List<TenantGraph.NodeRef> nodes = TopologyNodeStore.ensureNodes(c, tenant, List.of("service", "service"),
                    List.of(a, b), "test", at);
            TenantGraph.NodeRef from = nodes.stream().filter(n -> n.name().equals(a)).findFirst().orElseThrow();
            TenantGraph.NodeRef to = nodes.stream().filter(n -> n.name().equals(b)).findFirst().orElseThrow();
            return new EdgeWrites(c, tenant, "test", at).curated(List.of(new EdgeWrites.Want(from, "depends-on", to,
                    null, null))).finish();
        });
    }

    /** Removes every current edge of the tenant, as another replica would, and tells the feed. */
    private void removeAllElsewhere() {
        jdbc().inTransaction(c -> {
            Instant at = TopologyStore.writeInstant(c, tenant);
            List<EdgeRow> rows = Jdbc.query(c, "SELECT " + TopologyEdgeStore.EDGE_COLUMNS
                    + " WHERE e.tenant_id = ? AND e.valid_to IS NULL", TopologyEdgeStore::edge, tenant);
            new EdgeWrites(c, tenant, "other-replica", at).remove(rows).finish();
            notifyAsOtherReplica(c);
            return null;
        });
    }

    private void notifyAsOtherReplica(Connection c) throws SQLException {
        ChangeFeed.notifyOnCommit(c, TopologyGraphs.TOPIC, tenant + "/" + UUID.randomUUID());
    }

    @Test
    void aWriteThatThrowsAfterItsCommitLeavesNoStaleGraph() {
        TopologyGraphs graphs = new TopologyGraphs(new TopologyStore(jdbc()), ChangeFeed.disabled());
        assertThat(graphs.read(tenant, TenantGraph::edgeCount)).isZero();
        assertThatThrownBy(() -> graphs.<WriteOutcome>write(tenant, () -> {
            commitEdge("a", "b");
            throw new IllegalStateException("connection lost after the commit");
        }, WriteOutcome::graphChange)).isInstanceOf(IllegalStateException.class);
        assertThat(graphs.read(tenant, TenantGraph::edgeCount)).as("the committed edge is in the graph").isEqualTo(1);
    }

    @Test
    void anOlderLocalWriteIsNotAppliedOnTopOfANewerReload() throws Exception {
        ChangeFeed feed = kernel.kernel().changeFeed();
        TopologyGraphs graphs = new TopologyGraphs(new TopologyStore(jdbc()), feed);
        CountDownLatch heard = new CountDownLatch(1);
        feed.subscribe(TopologyGraphs.TOPIC, key -> { // after the graphs' own subscriber: it has dropped by now
            if (key.startsWith(tenant + "/")) {
                heard.countDown();
            }
        });
        assertThat(graphs.read(tenant, TenantGraph::edgeCount)).isZero();
        graphs.write(tenant, () -> {
            WriteOutcome mine = commitEdge("a", "b");
            removeAllElsewhere(); // a newer change from another replica ...
            try {
                assertThat(heard.await(30, TimeUnit.SECONDS)).as("the change feed delivered it").isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            assertThat(graphs.read(tenant, TenantGraph::edgeCount)).as("... reloaded by a traversal").isZero();
            return mine; // ... before this older write applies its change
        }, WriteOutcome::graphChange);
        assertThat(graphs.read(tenant, TenantGraph::edgeCount)).as("the graph shows the newer change").isZero();
    }

    @Test
    void aDropDoesNotWaitForATraversal() throws Exception {
        ChangeFeed feed = kernel.kernel().changeFeed();
        TopologyGraphs graphs = new TopologyGraphs(new TopologyStore(jdbc()), feed);
        CountDownLatch heard = new CountDownLatch(1);
        feed.subscribe(TopologyGraphs.TOPIC, key -> {
            if (key.startsWith(tenant + "/")) {
                heard.countDown();
            }
        });
        commitEdge("a", "b");
        assertThat(graphs.read(tenant, TenantGraph::edgeCount)).isEqualTo(1);
        // a traversal holds the graph while another replica's change arrives: the feed's thread goes on
        boolean delivered = graphs.read(tenant, g -> {
            removeAllElsewhere();
            try {
                return heard.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(delivered).as("the listener thread was not blocked by the traversal").isTrue();
        assertThat(graphs.read(tenant, TenantGraph::edgeCount)).as("dropped, then reloaded").isZero();
    }
}
