package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The HNSW graph finds nearly what an exact scan finds, with exact cosines, honours the accepted rows,
 * and declines (null: scan instead) when a filter leaves fewer rows than a walk would visit.
 */
class AnnGraphTest {

    private static final int DIM = 48;
    private static final int ROWS = 6_000;

    @Test
    void findsWhatTheExactScanFinds() {
        float[][] vectors = vectors(ROWS, new Random(7));
        AnnGraph graph = AnnGraph.buildNow(vectors);
        assertThat(graph.ready()).isTrue();
        Random random = new Random(11);
        double recall = 0;
        int queries = 50;
        for (int q = 0; q < queries; q++) {
            float[] query = vectors(1, random)[0];
            int[] found = graph.nearest(query, 10, 20, null, ROWS);
            int[] exact = exact(vectors, query, 10, r -> true);
            assertThat(found).hasSize(10);
            Set<Integer> want = new HashSet<>(Arrays.stream(exact).boxed().toList());
            recall += Arrays.stream(found).filter(want::contains).count() / 10.0;
            // best first, by the exact cosine
            for (int i = 1; i < found.length; i++) {
                assertThat(JvmVectorIndex.dot(query, vectors[found[i - 1]]))
                        .isGreaterThanOrEqualTo(JvmVectorIndex.dot(query, vectors[found[i]]));
            }
        }
        assertThat(recall / queries).as("recall@10").isGreaterThan(0.9);
    }

    @Test
    void returnsOnlyAcceptedRowsAndDeclinesANarrowFilter() {
        float[][] vectors = vectors(ROWS, new Random(3));
        AnnGraph graph = AnnGraph.buildNow(vectors);
        float[] query = vectors(1, new Random(5))[0];
        IntPredicate even = r -> r % 2 == 0;
        int[] found = graph.nearest(query, 10, 20, even, ROWS / 2);
        assertThat(found).hasSize(10);
        assertThat(Arrays.stream(found).allMatch(even::test)).as("only accepted rows").isTrue();
        int[] exact = exact(vectors, query, 10, even);
        assertThat(found[0]).as("the nearest accepted row").isEqualTo(exact[0]);

        IntPredicate few = r -> r % 1_000 == 0;
        assertThat(graph.nearest(query, 10, 20, few, ROWS / 1_000))
                .as("six accepted rows: scanning them beats a walk that must visit more").isNull();
    }

    private static int[] exact(float[][] vectors, float[] query, int k, IntPredicate accepted) {
        return IntStream.range(0, vectors.length).filter(accepted).boxed()
                .sorted(Comparator.comparingDouble((Integer r) -> JvmVectorIndex.dot(query, vectors[r])).reversed())
                .limit(k).mapToInt(Integer::intValue).toArray();
    }

    /** Unit vectors in clusters, as sentence embeddings are, rather than uniform noise. */
    private static float[][] vectors(int n, Random random) {
        float[][] centres = new float[20][DIM];
        Random fixed = new Random(99);
        for (float[] c : centres) {
            for (int d = 0; d < DIM; d++) {
                c[d] = (float) fixed.nextGaussian();
            }
        }
        float[][] out = new float[n][DIM];
        for (int i = 0; i < n; i++) {
            float[] c = centres[random.nextInt(centres.length)];
            double norm = 0;
            for (int d = 0; d < DIM; d++) {
                out[i][d] = c[d] + (float) random.nextGaussian() * 0.7f;
                norm += out[i][d] * out[i][d];
            }
            for (int d = 0; d < DIM; d++) {
                out[i][d] /= (float) Math.sqrt(norm);
            }
        }
        return out;
    }
}
