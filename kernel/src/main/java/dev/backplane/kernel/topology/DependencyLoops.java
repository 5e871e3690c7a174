package dev.backplane.kernel.topology;

import dev.backplane.kernel.topology.TenantGraph.Link;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.KosarajuStrongConnectivityInspector;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.DirectedPseudograph;
import org.jgrapht.util.SupplierUtil;

/**
 * The dependency loops among the nodes one walk went through, found by JGraphT's {@link
 * KosarajuStrongConnectivityInspector}. A loop is a strongly connected set of nodes — each depends, directly or
 * not, on every other — of more than one node, or a single node with an edge to itself; it is the same set whichever
 * way the walk went, so dependencies and dependents answer the same loops.
 *
 * <p>Bounded three ways, each answered by {@code cycles_truncated}: the search covers the nearest {@value
 * #MAX_SEARCHED} nodes walked (the start first, then in the order the walk reached them), and the answer lists at
 * most {@value #MAX_LOOPS} loops of at most {@value #MAX_LOOP_NODES} nodes each. The searched nodes and the followed
 * edges among them are copied into a small graph of dense ints first: Kosaraju iterates every vertex of the graph it
 * is given, and a masked view of a 100k-node tenant graph cost more than the walk itself.
 *
 * <p>Why strongly connected sets and not simple cycles ({@code TarjanSimpleCycles}, {@code JohnsonSimpleCycles}):
 * the sets are found in time linear in the searched subgraph, while a dense mesh has exponentially many simple
 * cycles, so no cap on the answer would cap the work. Why Kosaraju and not Gabow: JGraphT's Kosaraju searches with
 * an explicit stack, its Gabow recurses once per node on a chain, which a long enough chain overflows.
 */
final class DependencyLoops {

    /** The loop search covers at most this many of the nodes walked, the nearest first. */
    static final int MAX_SEARCHED = 1_000;
    /** An answer lists at most this many loops, the nearest first ... */
    static final int MAX_LOOPS = 100;
    /** ... and at most this many nodes of each, the nearest first. */
    static final int MAX_LOOP_NODES = 100;

    /** The loops as node indexes, each in the order the walk reached its nodes, and whether anything was cut. */
    record Loops(List<List<Integer>> loops, boolean truncated) {
    }

    private DependencyLoops() {
    }

    /**
     * The loops through {@code followed} edges of {@code graph} among the first {@code count} nodes of {@code order}
     * (the walk's start, then each node in the order the walk reached it), nearest first.
     */
    static Loops among(Graph<Integer, Link> graph, Predicate<Link> followed, int[] order, int count) {
        int searched = Math.min(count, MAX_SEARCHED);
        int[] rank = new int[graph.vertexSet().size()];
        Arrays.fill(rank, -1);
        Graph<Integer, DefaultEdge> walked = new DirectedPseudograph<>(null, SupplierUtil.DEFAULT_EDGE_SUPPLIER, false);
        for (int i = 0; i < searched; i++) {
            rank[order[i]] = i;
            walked.addVertex(i);
        }
        for (int i = 0; i < searched; i++) {
            for (Link l : graph.outgoingEdgesOf(order[i])) {
                if (rank[l.to] >= 0 && followed.test(l)) {
                    walked.addEdge(i, rank[l.to]);
                }
            }
        }
        List<List<Integer>> loops = new ArrayList<>();
        for (Set<Integer> set : new KosarajuStrongConnectivityInspector<>(walked).stronglyConnectedSets()) {
            Integer one = set.iterator().next();
            if (set.size() > 1 || walked.containsEdge(one, one)) {
                loops.add(set.stream().sorted().toList()); // a node's rank is its place in the walk
            }
        }
        loops.sort(Comparator.comparing(List::getFirst));
        boolean truncated = count > MAX_SEARCHED || loops.size() > MAX_LOOPS
                || loops.stream().anyMatch(l -> l.size() > MAX_LOOP_NODES);
        List<List<Integer>> kept = loops.stream().limit(MAX_LOOPS)
                .map(l -> l.stream().limit(MAX_LOOP_NODES).map(r -> order[r]).toList()).toList();
        return new Loops(kept, truncated);
    }
}
