package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Array;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Nearest neighbours by exact cosine over a tenant's chunks, held in memory per (tenant, surface):
 * loaded from {@code retrieval_chunks} on first use and dropped on every replica when any replica
 * writes that slice (change feed); while the feed is down every search reads the chunks afresh.
 * (The pgvector HNSW path of ARCHITECTURE §8 plugs in behind the same methods.)
 */
final class VectorIndex {

    /** A document's best chunk similarity. */
    record Scored(UUID entryId, double score) {
    }

    private record Slice(Map<UUID, List<float[]>> entries) {
    }

    private static final String TOPIC = "retrieval";
    private final Jdbc jdbc;
    private final ChangeFeed feed;
    private final Map<String, Slice> slices = new ConcurrentHashMap<>();

    VectorIndex(Jdbc jdbc, ChangeFeed feed) {
        this.jdbc = jdbc;
        this.feed = feed;
        feed.subscribe(TOPIC, key -> slices.remove(key));
        feed.onReset(slices::clear);
    }

    private static String key(UUID tenant, String surface) {
        return tenant + "/" + surface;
    }

    /** Replaces an entry's chunks in one transaction. */
    void put(UUID tenant, String surface, UUID entryId, List<float[]> chunks) {
        jdbc.inTransaction(c -> {
            dev.backplane.kernel.persistence.Jdbc.update(c, "DELETE FROM retrieval_chunks WHERE surface = ? AND entry_id = ?",
                    surface, entryId);
            try (var ps = c.prepareStatement("INSERT INTO retrieval_chunks (surface, entry_id, tenant_id, chunk, embedding) "
                    + "VALUES (?, ?, ?, ?, ?)")) {
                for (int i = 0; i < chunks.size(); i++) {
                    ps.setString(1, surface);
                    ps.setObject(2, entryId);
                    ps.setObject(3, tenant);
                    ps.setInt(4, i);
                    ps.setArray(5, c.createArrayOf("float4", boxed(chunks.get(i))));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
        feed.changed(TOPIC, key(tenant, surface)); // every replica (this one first) reloads the slice on next use
    }

    void remove(UUID tenant, String surface, UUID entryId) {
        jdbc.update("DELETE FROM retrieval_chunks WHERE surface = ? AND entry_id = ?", surface, entryId);
        feed.changed(TOPIC, key(tenant, surface));
    }

    List<Scored> nearest(UUID tenant, String surface, float[] query, int k, Predicate<UUID> allowed) {
        Slice slice = feed.live() ? slices.computeIfAbsent(key(tenant, surface), x -> load(tenant, surface))
                : load(tenant, surface);
        PriorityQueue<Scored> best = new PriorityQueue<>(Comparator.comparingDouble(Scored::score));
        for (Map.Entry<UUID, List<float[]>> e : slice.entries().entrySet()) {
            if (!allowed.test(e.getKey())) {
                continue;
            }
            double max = -2;
            for (float[] v : e.getValue()) {
                max = Math.max(max, dot(query, v));
            }
            best.add(new Scored(e.getKey(), max));
            if (best.size() > k) {
                best.poll();
            }
        }
        List<Scored> out = new ArrayList<>(best);
        out.sort(Comparator.comparingDouble(Scored::score).reversed());
        return out;
    }

    private Slice load(UUID tenant, String surface) {
        Map<UUID, List<float[]>> entries = new ConcurrentHashMap<>();
        jdbc.query("SELECT entry_id, embedding FROM retrieval_chunks WHERE tenant_id = ? AND surface = ? "
                + "ORDER BY entry_id, chunk", rs -> {
                    UUID id = rs.getObject(1, UUID.class);
                    Array a = rs.getArray(2);
                    Float[] boxed = (Float[]) a.getArray();
                    float[] v = new float[boxed.length];
                    for (int i = 0; i < v.length; i++) {
                        v[i] = boxed[i];
                    }
                    entries.computeIfAbsent(id, x -> new ArrayList<>()).add(v);
                    return null;
                }, tenant, surface);
        return new Slice(entries);
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static Float[] boxed(float[] v) {
        Float[] out = new Float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i];
        }
        return out;
    }
}
