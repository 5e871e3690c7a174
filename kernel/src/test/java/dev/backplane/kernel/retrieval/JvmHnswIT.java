package dev.backplane.kernel.retrieval;

import static dev.backplane.kernel.retrieval.ClusteredVectors.ids;
import static dev.backplane.kernel.retrieval.LiveDatabase.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The JVM index's HNSW path on real PostgreSQL: a large slice answers by exact scan until its graph is
 * built in the background, then through the graph with nearly the exact scan's answers, honouring
 * candidates and partitions; a written or deleted entry is searched correctly through the change feed
 * while the graph is kept.
 */
class JvmHnswIT {

    private static final String SURFACE = "it";

    @Test
    void largeSlicesAreSearchedThroughAGraphKeptCurrentFromTheChangeFeed() throws Exception {
        try (LiveDatabase live = LiveDatabase.start("svc-hnsw")) {
            Jdbc jdbc = live.jdbc();
            ChangeFeed feed = live.feed();
            UUID a = UUID.randomUUID();
            UUID b = UUID.randomUUID();
            ClusteredVectors random = new ClusteredVectors();
            Map<UUID, float[]> ofA = seed(jdbc, a, random.next(3_000));
            Map<UUID, float[]> ofB = seed(jdbc, b, random.next(500));
            JvmVectorIndex graph = new JvmVectorIndex(jdbc, feed, 2_000);
            JvmVectorIndex exact = new JvmVectorIndex(jdbc, ChangeFeed.disabled(), Integer.MAX_VALUE);
            assertThat(graph.kind()).isEqualTo("jvm-hnsw");
            assertThat(exact.kind()).isEqualTo("jvm-exact");

            List<UUID> ids = new ArrayList<>(ofA.keySet());
            UUID first = ids.getFirst();
            assertThat(ids(graph.nearest(List.of(a), SURFACE, ofA.get(first), 10, Candidates.all())))
                    .as("answered while the graph builds (exact scan)").first().isEqualTo(first);
            waitFor(() -> graph.warm(a, SURFACE), "the graph of a is built");
            assertThat(graph.warm(b, SURFACE)).as("b was never searched").isFalse();

            Set<UUID> half = new HashSet<>(ids.subList(0, ids.size() / 2));
            Set<UUID> few = new HashSet<>(ids.subList(0, 20));
            double recall = 0;
            int searches = 0;
            for (int i = 0; i < 30; i++) {
                UUID self = ids.get(random.nextInt(half.size()));
                float[] q = ofA.get(self);
                for (Candidates candidates : List.of(Candidates.all(), Candidates.only(half),
                        Candidates.except(Set.of(ids.get(ids.size() - 1))))) {
                    List<UUID> walked = ids(graph.nearest(List.of(a), SURFACE, q, 10, candidates));
                    List<UUID> scanned = ids(exact.nearest(List.of(a), SURFACE, q, 10, candidates));
                    assertThat(walked).as("an entry is its own nearest neighbour").first().isEqualTo(self);
                    assertThat(walked).hasSize(10).allMatch(candidates::allows).allMatch(ofA::containsKey);
                    recall += walked.stream().filter(scanned::contains).count() / 10.0;
                    searches++;
                }
                assertThat(ids(graph.nearest(List.of(a), SURFACE, q, 10, Candidates.only(few))))
                        .as("20 candidates in 3,000: scanned exactly")
                        .isEqualTo(ids(exact.nearest(List.of(a), SURFACE, q, 10, Candidates.only(few))));
            }
            System.out.printf("JVM HNSW recall@10 against the exact scan: %.3f over %d searches%n",
                    recall / searches, searches);
            assertThat(recall / searches).isGreaterThan(0.9);

            UUID ofBoth = ofB.keySet().iterator().next();
            List<UUID> across = ids(graph.nearest(List.of(a, b), SURFACE, ofB.get(ofBoth), 10, Candidates.all()));
            assertThat(across).first().isEqualTo(ofBoth);
            assertThat(ids(graph.nearest(List.of(a), SURFACE, ofB.get(ofBoth), 10, Candidates.all())))
                    .as("b's entries never in a's answers").allMatch(ofA::containsKey);

            // an entry rewritten to a new vector, another deleted: found (and not) through the feed
            UUID moved = ids.get(5);
            UUID deleted = ids.get(6);
            float[] elsewhere = random.elsewhere();
            jdbc.inTransaction(c -> {
                ChunkStore.replaceIn(c, a, SURFACE, moved, "moved", Map.of(EmbeddingModels.DEFAULT.name(), List.of(elsewhere)));
                ChunkStore.delete(c, SURFACE, deleted);
                return null;
            });
            feed.changed(SliceChanges.TOPIC, SliceChanges.entryKey(a, SURFACE, moved));
            feed.changed(SliceChanges.TOPIC, SliceChanges.entryKey(a, SURFACE, deleted));
            waitFor(() -> ids(graph.nearest(List.of(a), SURFACE, elsewhere, 10, Candidates.all())).getFirst()
                    .equals(moved), "the rewritten entry is found at its new place");
            assertThat(ids(graph.nearest(List.of(a), SURFACE, ofA.get(moved), 10, Candidates.all())))
                    .as("nor at its old place").doesNotContain(moved);
            assertThat(ids(graph.nearest(List.of(a), SURFACE, ofA.get(deleted), 10, Candidates.all())))
                    .as("a deleted entry is gone").doesNotContain(deleted);
            assertThat(graph.warm(a, SURFACE)).as("a few changed entries keep the graph").isTrue();
        }
    }

    private static Map<UUID, float[]> seed(Jdbc jdbc, UUID tenant, Map<UUID, float[]> vectors) {
        jdbc.inTransaction(c -> {
            for (Map.Entry<UUID, float[]> e : vectors.entrySet()) {
                ChunkStore.replaceIn(c, tenant, SURFACE, e.getKey(), "entry",
                        Map.of(EmbeddingModels.DEFAULT.name(), List.of(e.getValue())));
            }
            return null;
        });
        return vectors;
    }

}
