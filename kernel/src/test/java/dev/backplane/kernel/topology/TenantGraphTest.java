package dev.backplane.kernel.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.jgrapht.Graph;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.shortestpath.AllDirectedPaths;
import org.jgrapht.graph.DefaultDirectedGraph;
import org.jgrapht.graph.DefaultEdge;
import org.junit.jupiter.api.Test;

/**
 * The in-memory graph's walks and its bidirectional path search, against a plain breadth-first search
 * on random graphs: the same shortest length whenever one exists within the hop budget, a chain of
 * real edges, stale edges never used, and edges replaced or removed by id.
 */
class TenantGraphTest {

    private static final int N = 300;

    private record Built(TenantGraph graph, UUID[] ids, List<List<Integer>> live) {
    }

    private static Built random(long seed, int edges, double staleShare) {
        Random r = new Random(seed);
        TenantGraph g = new TenantGraph();
        UUID[] ids = new UUID[N];
        List<List<Integer>> live = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            ids[i] = UUID.randomUUID();
            g.putNode(new TenantGraph.NodeRef(ids[i], "host", "h" + i));
            live.add(new ArrayList<>());
        }
        for (int e = 0; e < edges; e++) {
            int a = r.nextInt(N);
            int b = r.nextInt(N);
            boolean stale = r.nextDouble() < staleShare;
            g.putEdge(UUID.randomUUID(), ids[a], ids[b], "depends-on", "auto", stale, false);
            if (!stale) {
                live.get(a).add(b);
            }
        }
        return new Built(g, ids, live);
    }

    /** Shortest distance over live edges by a one-sided breadth-first search; -1 when unreachable. */
    private static int distance(List<List<Integer>> live, int from, int to) {
        int[] d = new int[N];
        Arrays.fill(d, -1);
        d[from] = 0;
        ArrayDeque<Integer> q = new ArrayDeque<>(List.of(from));
        while (!q.isEmpty()) {
            int v = q.poll();
            for (int w : live.get(v)) {
                if (d[w] < 0) {
                    d[w] = d[v] + 1;
                    q.add(w);
                }
            }
        }
        return d[to];
    }

    @Test
    void pathsAreShortestRealAndWithinTheBudget() {
        for (long seed = 1; seed <= 20; seed++) {
            Built b = random(seed, 150 + (int) seed * 40, 0.2);
            Random r = new Random(seed * 31);
            for (int k = 0; k < 200; k++) {
                int from = r.nextInt(N);
                int to = r.nextInt(N);
                int hops = 1 + r.nextInt(12);
                int want = distance(b.live(), from, to);
                Optional<List<TenantGraph.Hop>> got = b.graph().path(from, to, hops);
                if (want < 0 || want > hops) {
                    assertThat(got).as("seed %d %d->%d within %d (distance %d)", seed, from, to, hops, want).isEmpty();
                    continue;
                }
                assertThat(got).as("seed %d %d->%d within %d", seed, from, to, hops).isPresent();
                List<TenantGraph.Hop> path = got.get();
                assertThat(path).hasSize(want);
                if (want > 0) {
                    assertThat(path.getFirst().from().name()).isEqualTo("h" + from);
                    assertThat(path.getLast().to().name()).isEqualTo("h" + to);
                }
                for (int i = 1; i < path.size(); i++) {
                    assertThat(path.get(i).from()).isEqualTo(path.get(i - 1).to());
                }
                for (TenantGraph.Hop h : path) {
                    int a = Integer.parseInt(h.from().name().substring(1));
                    int c = Integer.parseInt(h.to().name().substring(1));
                    assertThat(b.live().get(a)).as("a live edge %d->%d", a, c).contains(c);
                }
            }
        }
    }

    @Test
    void walksStopAtTheDepthTheKindsAndTheCap() {
        TenantGraph g = new TenantGraph();
        UUID[] ids = new UUID[6];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = UUID.randomUUID();
            g.putNode(new TenantGraph.NodeRef(ids[i], i < 3 ? "pod" : "node", "n" + i));
        }
        UUID stale = UUID.randomUUID();
        g.putEdge(UUID.randomUUID(), ids[0], ids[1], "runs-on", "auto", false, false);
        g.putEdge(UUID.randomUUID(), ids[1], ids[2], "mounts", "curated", false, false);
        g.putEdge(UUID.randomUUID(), ids[2], ids[3], "runs-on", "curated", false, false);
        g.putEdge(stale, ids[0], ids[4], "runs-on", "auto", true, false);
        g.putEdge(UUID.randomUUID(), ids[3], ids[0], "depends-on", "curated", false, false); // a cycle

        assertThat(names(g.walk(0, true, 64, Set.of(), Optional.empty(), false, 100))).containsExactly("n1", "n2", "n3");
        assertThat(names(g.walk(0, true, 2, Set.of(), Optional.empty(), false, 100))).containsExactly("n1", "n2");
        assertThat(names(g.walk(0, true, 64, Set.of(), Optional.empty(), true, 100))).containsExactly("n1", "n4", "n2",
                "n3");
        assertThat(names(g.walk(0, true, 64, Set.of("runs-on"), Optional.empty(), false, 100))).containsExactly("n1");
        assertThat(names(g.walk(0, true, 64, Set.of(), Optional.of("node"), false, 100))).containsExactly("n3");
        assertThat(names(g.walk(0, true, 64, Set.of(), Optional.empty(), false, 2))).containsExactly("n1", "n2");
        assertThat(names(g.walk(3, false, 1, Set.of(), Optional.empty(), false, 100))).containsExactly("n2");

        g.removeEdge(stale);
        assertThat(names(g.walk(0, true, 64, Set.of(), Optional.empty(), true, 100))).doesNotContain("n4");
        assertThat(g.edgeCount()).isEqualTo(4);
        UUID replaced = UUID.randomUUID();
        g.putEdge(replaced, ids[0], ids[5], "runs-on", "curated", false, false);
        g.putEdge(replaced, ids[0], ids[5], "runs-on", "curated", true, true);
        assertThat(g.edgeCount()).as("a new state of an edge replaces its old one").isEqualTo(5);
        assertThat(g.path(0, 5, 8)).as("the replaced edge is stale now").isEmpty();
    }

    private static List<String> names(TenantGraph.Walked walked) {
        return walked.reached().stream().map(r -> r.node().name()).toList();
    }

    /** A graph of nodes n0..n(count-1), all of kind host, and a way to add edges between them by index. */
    private record Small(TenantGraph graph, UUID[] ids) {
        static Small of(int count) {
            TenantGraph g = new TenantGraph();
            UUID[] ids = new UUID[count];
            for (int i = 0; i < count; i++) {
                ids[i] = UUID.randomUUID();
                g.putNode(new TenantGraph.NodeRef(ids[i], "host", "n" + i));
            }
            return new Small(g, ids);
        }

        Small edge(int from, int to) {
            return edge(from, to, "depends-on", false);
        }

        Small edge(int from, int to, String kind, boolean stale) {
            graph.putEdge(UUID.randomUUID(), ids[from], ids[to], kind, "curated", stale, false);
            return this;
        }

        TenantGraph.Walked dependencies(int start) {
            return graph.walk(start, true, 64, Set.of(), Optional.empty(), false, Traversals.MAX_RESULTS);
        }
    }

    private static List<List<String>> loops(TenantGraph.Walked walked) {
        return walked.loops().stream().map(l -> l.stream().map(TenantGraph.NodeRef::name).toList()).toList();
    }

    @Test
    void aLoopIsReportedOnceInTheOrderTheWalkReachedIt() {
        // n0 -> n1 -> n2 -> n3 -> n1: one loop n1, n2, n3 below the start; n3 also leads out to n4
        Small s = Small.of(5).edge(0, 1).edge(1, 2).edge(2, 3).edge(3, 1).edge(3, 4);
        TenantGraph.Walked w = s.dependencies(0);
        assertThat(loops(w)).containsExactly(List.of("n1", "n2", "n3"));
        assertThat(w.loopsTruncated()).isFalse();
        assertThat(names(w)).as("the walk itself is unchanged by the loop").containsExactly("n1", "n2", "n3", "n4");
        assertThat(loops(s.graph().walk(4, false, 64, Set.of(), Optional.empty(), false, 100)))
                .as("dependents answer the same loop, in the order they reached it").containsExactly(
                        List.of("n3", "n2", "n1"));

        Small through = Small.of(3).edge(0, 1).edge(1, 2).edge(2, 0);
        assertThat(loops(through.dependencies(0))).as("a loop through the start includes the start")
                .containsExactly(List.of("n0", "n1", "n2"));
        assertThat(loops(through.dependencies(0))).hasSize(1);
    }

    @Test
    void aSelfLoopIsALoopAndNoLoopIsNone() {
        Small self = Small.of(3).edge(0, 1).edge(1, 1).edge(1, 2);
        assertThat(loops(self.dependencies(0))).containsExactly(List.of("n1"));

        Small dag = Small.of(5).edge(0, 1).edge(0, 2).edge(1, 3).edge(2, 3).edge(3, 4); // a diamond, no loop
        assertThat(loops(dag.dependencies(0))).isEmpty();
        assertThat(dag.dependencies(0).loopsTruncated()).isFalse();
        assertThat(loops(Small.of(1).dependencies(0))).as("a node without edges").isEmpty();
    }

    @Test
    void loopsFollowOnlyTheEdgesTheWalkFollows() {
        Small s = Small.of(3).edge(0, 1).edge(1, 2).edge(2, 0, "depends-on", true).edge(2, 1, "mounts", false);
        assertThat(loops(s.dependencies(0))).as("a stale edge closes no loop").containsExactly(List.of("n1", "n2"));
        assertThat(loops(s.graph().walk(0, true, 64, Set.of(), Optional.empty(), true, 100)))
                .as("unless stale edges are asked for").containsExactly(List.of("n0", "n1", "n2"));
        assertThat(loops(s.graph().walk(0, true, 64, Set.of("depends-on"), Optional.empty(), false, 100)))
                .as("an edge of another kind closes no loop").isEmpty();
        assertThat(loops(s.graph().walk(0, true, 1, Set.of(), Optional.empty(), false, 100)))
                .as("only the nodes within the depth are searched").isEmpty();
        assertThat(loops(s.graph().walk(0, true, 64, Set.of(), Optional.of("vm"), false, 100)))
                .as("node_kind filters the answer, not the walk").containsExactly(List.of("n1", "n2"));
    }

    @Test
    void loopsAreBoundedAndSayWhenCut() {
        int ring = DependencyLoops.MAX_LOOP_NODES + 50; // n1 -> n2 -> ... -> n150 -> n1, all one hop from n0
        Small big = Small.of(ring + 1);
        for (int i = 1; i <= ring; i++) {
            big.edge(0, i).edge(i, i % ring + 1);
        }
        TenantGraph.Walked w = big.dependencies(0);
        assertThat(w.loops()).hasSize(1);
        assertThat(loops(w).getFirst()).hasSize(DependencyLoops.MAX_LOOP_NODES).startsWith("n1", "n2");
        assertThat(w.loopsTruncated()).isTrue();

        int many = DependencyLoops.MAX_LOOPS + 5;
        Small selfs = Small.of(many + 1);
        for (int i = 1; i <= many; i++) {
            selfs.edge(0, i).edge(i, i);
        }
        TenantGraph.Walked s = selfs.dependencies(0);
        assertThat(s.loops()).hasSize(DependencyLoops.MAX_LOOPS);
        assertThat(loops(s).getFirst()).containsExactly("n1");
        assertThat(s.loopsTruncated()).isTrue();

        int fan = DependencyLoops.MAX_SEARCHED + 10; // n0 -> n1..n260: a loop among the farthest is not searched
        Small far = Small.of(fan + 1);
        for (int i = 1; i <= fan; i++) {
            far.edge(0, i);
        }
        far.edge(1, 2).edge(2, 1).edge(fan - 1, fan).edge(fan, fan - 1);
        TenantGraph.Walked f = far.dependencies(0);
        assertThat(f.reached()).hasSize(fan);
        assertThat(loops(f)).containsExactly(List.of("n1", "n2"));
        assertThat(f.loopsTruncated()).as("the search stopped short of every node walked").isTrue();
    }

    @Test
    void thePathSearchHonoursTheHopBudgetExactly() {
        // a live chain of 5 hops n0 -> n5, and a 2-hop shortcut n0 -> n6 -> n5 whose second edge is stale
        Small s = Small.of(7).edge(0, 1).edge(1, 2).edge(2, 3).edge(3, 4).edge(4, 5).edge(0, 6)
                .edge(6, 5, "depends-on", true);
        assertThat(s.graph().path(0, 5, 4)).as("the live path needs 5 hops").isEmpty();
        assertThat(s.graph().path(0, 5, 5).map(List::size)).contains(5);
        assertThat(s.graph().path(0, 5, 32).map(List::size)).contains(5);
        s.edge(6, 5); // the shortcut is seen again
        assertThat(s.graph().path(0, 5, 2).map(List::size)).contains(2);
        assertThat(s.graph().path(0, 5, 1)).isEmpty();
    }

    /**
     * Against JGraphT's {@link AllDirectedPaths} bounded by the same hop budget, on small random graphs where the
     * budget often cuts: a path is found exactly when some path within the budget exists, and it is the shortest.
     */
    @Test
    void pathsMatchEveryPathWithinTheBudget() {
        for (long seed = 1; seed <= 30; seed++) {
            Random r = new Random(seed);
            int n = 25;
            Small s = Small.of(n);
            Graph<Integer, DefaultEdge> live = new DefaultDirectedGraph<>(DefaultEdge.class);
            for (int i = 0; i < n; i++) {
                live.addVertex(i);
            }
            for (int e = 0; e < 45; e++) {
                int a = r.nextInt(n);
                int b = r.nextInt(n);
                boolean stale = r.nextInt(5) == 0;
                s.edge(a, b, "depends-on", stale);
                if (!stale && a != b) {
                    live.addEdge(a, b);
                }
            }
            AllDirectedPaths<Integer, DefaultEdge> all = new AllDirectedPaths<>(live);
            for (int k = 0; k < 60; k++) {
                int from = r.nextInt(n);
                int to = r.nextInt(n);
                if (from == to) {
                    continue;
                }
                int hops = 1 + r.nextInt(6);
                OptionalInt want = all.getAllPaths(from, to, true, hops).stream().mapToInt(GraphPath::getLength).min();
                Optional<List<TenantGraph.Hop>> got = s.graph().path(from, to, hops);
                assertThat(got.map(List::size)).as("seed %d: %d -> %d within %d", seed, from, to, hops)
                        .isEqualTo(want.isPresent() ? Optional.of(want.getAsInt()) : Optional.empty());
            }
        }
    }
}
