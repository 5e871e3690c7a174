package dev.backplane.kernel.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
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

    private static List<String> names(List<TenantGraph.Reached> reached) {
        return reached.stream().map(r -> r.node().name()).toList();
    }
}
