package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The primitive top-k heap keeps what sorting everything and taking the first k keeps. */
class TopKTest {

    @Test
    void keepsTheBestKOfManyInAnyOrderOfOffers() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            int k = 1 + random.nextInt(120);
            int n = random.nextInt(3_000);
            float[] scores = new float[n];
            TopK top = new TopK(k);
            for (int i = 0; i < n; i++) {
                scores[i] = random.nextInt(10) == 0 ? 0.5f : random.nextFloat(); // some ties
                if (top.admits(scores[i])) {
                    top.offer(i, scores[i]);
                }
            }
            List<Float> kept = new ArrayList<>();
            top.forEach((id, score) -> {
                assertThat(score).isEqualTo(scores[id]);
                kept.add(score);
            });
            List<Float> expected = new ArrayList<>();
            for (float s : scores) {
                expected.add(s);
            }
            expected.sort(Comparator.reverseOrder());
            kept.sort(Comparator.reverseOrder());
            assertThat(kept).as("k %d of %d", k, n).containsExactlyElementsOf(expected.subList(0, Math.min(k, n)));
        }
    }

    @Test
    void aScoreTiedWithTheWorstKeptDoesNotEnterAFullHeap() {
        TopK top = new TopK(2);
        top.offer(1, 0.9f);
        top.offer(2, 0.4f);
        assertThat(top.admits(0.4f)).isFalse();
        top.offer(3, 0.4f);
        List<Integer> ids = new ArrayList<>();
        top.forEach((id, score) -> ids.add(id));
        assertThat(ids).containsExactlyInAnyOrder(1, 2);
    }
}
