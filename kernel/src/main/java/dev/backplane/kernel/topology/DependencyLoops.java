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
    static final int MAX_SEARCHED = 250;
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
        for (int i = 0; i < searched; i++) {
            rank[order[i]] = i;
        }
        // the followed edges among the searched nodes, by rank: from[k] -> to[k]
        int[] from = new int[16];
        int[] to = new int[16];
        int edges = 0;
        for (int i = 0; i < searched; i++) {
            for (Link l : graph.outgoingEdgesOf(order[i])) {
                if (rank[l.to] >= 0 && followed.test(l)) {
                    if (edges == from.length) {
                        from = Arrays.copyOf(from, edges * 2);
                        to = Arrays.copyOf(to, edges * 2);
                    }
                    from[edges] = i;
                    to[edges++] = rank[l.to];
                }
            }
        }
        boolean[] onALoop = mayBeOnALoop(searched, from, to, edges);
        Graph<Integer, DefaultEdge> walked = new DirectedPseudograph<>(null, SupplierUtil.DEFAULT_EDGE_SUPPLIER, false);
        for (int i = 0; i < searched; i++) {
            if (onALoop[i]) {
                walked.addVertex(i);
            }
        }
        for (int k = 0; k < edges; k++) {
            if (onALoop[from[k]] && onALoop[to[k]]) {
                walked.addEdge(from[k], to[k]);
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

    /**
     * The nodes that may lie on a loop: what is left after repeatedly taking away every node with no followed edge
     * in, or none out, among those left (a node on a loop keeps one of each). Linear in the searched subgraph, over
     * int arrays; most walks of a dependency graph leave nothing, and JGraphT's search then has nothing to do — it
     * is what made the loop report cost more than the walk on the 100k-node bench.
     */
    private static boolean[] mayBeOnALoop(int nodes, int[] from, int[] to, int edges) {
        int[] in = new int[nodes];
        int[] out = new int[nodes];
        int[] outStart = new int[nodes + 1];
        int[] inStart = new int[nodes + 1];
        for (int k = 0; k < edges; k++) {
            out[from[k]]++;
            in[to[k]]++;
        }
        for (int i = 0; i < nodes; i++) {
            outStart[i + 1] = outStart[i] + out[i];
            inStart[i + 1] = inStart[i] + in[i];
        }
        int[] outEdges = new int[edges]; // the targets of each node's edges, grouped by node
        int[] inEdges = new int[edges]; // the sources of each node's edges, grouped by node
        int[] outFill = Arrays.copyOf(outStart, nodes);
        int[] inFill = Arrays.copyOf(inStart, nodes);
        for (int k = 0; k < edges; k++) {
            outEdges[outFill[from[k]]++] = to[k];
            inEdges[inFill[to[k]]++] = from[k];
        }
        boolean[] left = new boolean[nodes];
        Arrays.fill(left, true);
        int[] queue = new int[nodes];
        int tail = 0;
        for (int i = 0; i < nodes; i++) {
            if (in[i] == 0 || out[i] == 0) {
                left[i] = false;
                queue[tail++] = i;
            }
        }
        for (int head = 0; head < tail; head++) {
            int v = queue[head];
            for (int e = outStart[v]; e < outStart[v + 1]; e++) {
                int w = outEdges[e];
                if (left[w] && --in[w] == 0) {
                    left[w] = false;
                    queue[tail++] = w;
                }
            }
            for (int e = inStart[v]; e < inStart[v + 1]; e++) {
                int u = inEdges[e];
                if (left[u] && --out[u] == 0) {
                    left[u] = false;
                    queue[tail++] = u;
                }
            }
        }
        return left;
    }
}
