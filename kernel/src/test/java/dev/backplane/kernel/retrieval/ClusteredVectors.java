package dev.backplane.kernel.retrieval;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * The HNSW tests' data: unit vectors of 384 dimensions around 40 random centres, all drawn from one seeded
 * {@link Random} so that every run searches the same graph (the JVM graph and pgvector's alike).
 */
final class ClusteredVectors {

    private final Random random = new Random(7);
    private final float[][] centres = new float[40][];

    ClusteredVectors() {
        for (int i = 0; i < centres.length; i++) {
            centres[i] = gaussian(1);
        }
    }

    /** {@code n} new entries, each a random centre plus noise, in the order drawn. */
    Map<UUID, float[]> next(int n) {
        Map<UUID, float[]> vectors = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            float[] c = centres[random.nextInt(centres.length)];
            float[] noise = gaussian(0.8);
            float[] v = new float[c.length];
            for (int d = 0; d < v.length; d++) {
                v[d] = c[d] + noise[d];
            }
            vectors.put(UUID.randomUUID(), Embedder.normalized(v));
        }
        return vectors;
    }

    /** A unit vector of no cluster. */
    float[] elsewhere() {
        return Embedder.normalized(gaussian(1));
    }

    /** The next random index below {@code bound}, from the same seeded sequence. */
    int nextInt(int bound) {
        return random.nextInt(bound);
    }

    /** The entry ids of search hits, best first. */
    static List<UUID> ids(List<VectorIndex.Scored> hits) {
        return hits.stream().map(VectorIndex.Scored::entryId).toList();
    }

    private float[] gaussian(double scale) {
        float[] v = new float[384];
        for (int d = 0; d < v.length; d++) {
            v[d] = (float) (random.nextGaussian() * scale / Math.sqrt(v.length));
        }
        return v;
    }
}
