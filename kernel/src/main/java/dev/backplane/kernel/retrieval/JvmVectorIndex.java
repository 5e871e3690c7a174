package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.nio.ByteBuffer;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.postgresql.PGStatement;

/**
 * Nearest neighbours by exact cosine over a partition's chunks, held in memory per (partition, surface):
 * read from {@code retrieval_chunks} on first use and then kept current entry by entry from the change
 * feed ({@link SliceChanges}: a write re-reads that entry's chunks, not the partition); while the feed
 * is down every search reads the chunks afresh.
 * The vectors of a slice sit in one flat array (a scan is bound by memory bandwidth: 100k chunks are
 * 150 MB), and a large slice is scanned on every core.
 */
final class JvmVectorIndex implements VectorIndex {

    /**
     * A slice: its entries and its chunk rows as read — row {@code r} belongs to entry {@code rowEntry[r]} —
     * plus the entries changed since: {@code replaced} base entries are skipped, {@code changed} holds
     * their current chunks (a deleted entry has none).
     */
    private record Slice(UUID[] entries, int[] rowEntry, float[] vectors, int dimension, Set<UUID> replaced,
                         Map<UUID, float[][]> changed) {
        int rows() {
            return rowEntry.length;
        }

        Slice with(Set<UUID> touched, Map<UUID, float[][]> current) {
            Set<UUID> r = new HashSet<>(replaced);
            r.addAll(touched);
            Map<UUID, float[][]> c = new HashMap<>(changed);
            touched.forEach(c::remove);
            c.putAll(current);
            return new Slice(entries, rowEntry, vectors, dimension, Set.copyOf(r), Map.copyOf(c));
        }
    }

    /** Below this many chunks one thread scans faster than a fork and join. */
    static final int PARALLEL_MIN_CHUNKS = 20_000;
    private final Jdbc jdbc;
    private final ChangeFeed feed;
    private final Map<String, Slice> slices = new ConcurrentHashMap<>();
    /** Loads under way: concurrent searches of a slice not yet loaded wait for the one load. */
    private final Map<String, CompletableFuture<Slice>> loading = new ConcurrentHashMap<>();
    private final SliceChanges changes;

    JvmVectorIndex(Jdbc jdbc, ChangeFeed feed) {
        this.jdbc = jdbc;
        this.feed = feed;
        this.changes = new SliceChanges(feed, key -> slices.containsKey(key) || loading.containsKey(key),
                slices::remove, slices::clear);
    }

    @Override
    public String kind() {
        return "jvm-exact";
    }

    private static String key(UUID tenant, String surface) {
        return LexicalIndex.key(tenant, surface);
    }

    @Override
    public List<Scored> nearest(List<UUID> partitions, String surface, float[] query, int k, Candidates candidates) {
        List<Scored> all = new ArrayList<>();
        for (UUID partition : partitions.stream().distinct().toList()) {
            Slice slice = feed.live() ? current(partition, surface) : load(partition, surface);
            all.addAll(nearest(slice, query, k, candidates));
        }
        all.sort(Comparator.comparingDouble(Scored::score).reversed());
        return all.size() > k ? all.subList(0, k) : all;
    }

    /** The slice with the entries changed since it was read applied (only their chunks are read). */
    private Slice current(UUID partition, String surface) {
        String key = key(partition, surface);
        Slice slice = slice(partition, surface);
        Set<UUID> touched = changes.take(key);
        if (touched.isEmpty()) {
            return slice;
        }
        Map<UUID, List<float[]>> chunks = new HashMap<>();
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT entry_id, array_send(embedding) FROM retrieval_chunks "
                    + "WHERE tenant_id = ? AND surface = ? AND entry_id = ANY (?)")) {
                ps.setObject(1, partition);
                ps.setString(2, surface);
                ps.setArray(3, c.createArrayOf("uuid", touched.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        chunks.computeIfAbsent(rs.getObject(1, UUID.class), e -> new ArrayList<>())
                                .add(ChunkRows.floats(ByteBuffer.wrap(rs.getBytes(2))));
                    }
                }
            }
            return null;
        });
        Map<UUID, float[][]> current = new HashMap<>();
        chunks.forEach((entry, list) -> current.put(entry, list.toArray(float[][]::new)));
        Slice patched = slice.with(touched, current);
        if (patched.replaced().size() > Math.max(LexicalIndex.MAX_CHANGED, slice.entries().length / 10)) {
            slices.remove(key, slice); // read whole again on the next search
        } else if (!slices.replace(key, slice, patched)) {
            slices.remove(key); // changed meanwhile by another search: read whole again rather than guess
        }
        return patched;
    }

    /** The slice, from the cache or read once however many searches ask at the same time. */
    private Slice slice(UUID partition, String surface) {
        String key = key(partition, surface);
        Slice cached = slices.get(key);
        if (cached != null) {
            return cached;
        }
        CompletableFuture<Slice> mine = new CompletableFuture<>();
        CompletableFuture<Slice> running = loading.putIfAbsent(key, mine);
        if (running != null) {
            return running.join();
        }
        try {
            changes.clear(key); // what was pending is in what is read now
            Slice slice = load(partition, surface);
            slices.put(key, slice);
            mine.complete(slice);
            return slice;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            loading.remove(key, mine);
        }
    }

    private static List<Scored> nearest(Slice slice, float[] query, int k, Candidates candidates) {
        boolean[] allowed = null;
        if (!(candidates instanceof Candidates.All) || !slice.replaced().isEmpty()) {
            allowed = new boolean[slice.entries().length];
            for (int e = 0; e < allowed.length; e++) {
                UUID entry = slice.entries()[e];
                allowed[e] = candidates.allows(entry) && !slice.replaced().contains(entry);
            }
        }
        int rows = slice.rows();
        int parts = rows < PARALLEL_MIN_CHUNKS ? 1 : Runtime.getRuntime().availableProcessors();
        boolean[] only = allowed;
        float[] best = IntStream.range(0, parts).parallel()
                .mapToObj(p -> scan(slice, query, only, (int) ((long) rows * p / parts), (int) ((long) rows * (p + 1) / parts)))
                .reduce((a, b) -> {
                    for (int e = 0; e < a.length; e++) {
                        a[e] = Math.max(a[e], b[e]);
                    }
                    return a;
                }).orElseGet(() -> new float[0]);
        PriorityQueue<Scored> top = new PriorityQueue<>(k + 1, Comparator.comparingDouble(Scored::score));
        for (int e = 0; e < best.length; e++) {
            if (best[e] > NONE && (top.size() < k || best[e] > top.peek().score())) {
                top.add(new Scored(slice.entries()[e], best[e]));
                if (top.size() > k) {
                    top.poll();
                }
            }
        }
        slice.changed().forEach((entry, chunks) -> {
            if (chunks.length > 0 && candidates.allows(entry)) {
                float bestChunk = NONE;
                for (float[] chunk : chunks) {
                    bestChunk = Math.max(bestChunk, dot(query, chunk, 0));
                }
                if (top.size() < k || bestChunk > top.peek().score()) {
                    top.add(new Scored(entry, bestChunk));
                    if (top.size() > k) {
                        top.poll();
                    }
                }
            }
        });
        List<Scored> out = new ArrayList<>(top);
        out.sort(Comparator.comparingDouble(Scored::score).reversed());
        return out;
    }

    /** Below any cosine: an entry with no allowed chunk in the rows scanned. */
    private static final float NONE = -2;

    /** Each entry's best chunk similarity over rows {@code from .. to-1} (NONE where it has none there). */
    private static float[] scan(Slice slice, float[] query, boolean[] allowed, int from, int to) {
        float[] best = new float[slice.entries().length];
        Arrays.fill(best, NONE);
        int[] rowEntry = slice.rowEntry();
        float[] vectors = slice.vectors();
        int dim = slice.dimension();
        for (int r = from; r < to; r++) {
            int e = rowEntry[r];
            if (allowed == null || allowed[e]) {
                best[e] = Math.max(best[e], dot(query, vectors, r * dim));
            }
        }
        return best;
    }

    /**
     * Reads the slice as {@code array_send} bytes (the binary array format: a 20-byte header for one
     * dimension, then a length and a big-endian float per element) — no boxed Float per element —
     * transferred in binary and streamed in batches, in whatever order the rows come (sorting 100k
     * rows of 1.5 KB would spill to disk on the server).
     */
    private Slice load(UUID tenant, String surface) {
        SliceBuilder slice = new SliceBuilder();
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT entry_id, array_send(embedding) FROM retrieval_chunks "
                    + "WHERE tenant_id = ? AND surface = ?")) {
                ps.unwrap(PGStatement.class).setPrepareThreshold(-1); // results in binary from the first execution
                ps.setFetchSize(2_000);
                ps.setObject(1, tenant);
                ps.setString(2, surface);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        slice.add(rs.getObject(1, UUID.class), ByteBuffer.wrap(rs.getBytes(2)));
                    }
                }
            }
            return null;
        });
        return slice.build();
    }

    /** Accumulates chunk rows, in any order, into the flat arrays of a {@link Slice}. */
    private static final class SliceBuilder {
        private final List<UUID> entries = new ArrayList<>();
        private final Map<UUID, Integer> index = new HashMap<>();
        private int[] rowEntry = new int[1024];
        private float[] vectors = new float[0];
        private int dimension;
        private int rows;

        void add(UUID entryId, ByteBuffer sent) throws SQLException {
            int dims = sent.getInt(0);
            int length = dims == 0 ? 0 : sent.getInt(12);
            if (dimension == 0) {
                dimension = length;
            } else if (length != dimension) {
                throw new SQLException("retrieval_chunks: a " + length + "-dimension vector among " + dimension);
            }
            Integer e = index.computeIfAbsent(entryId, id -> {
                entries.add(id);
                return entries.size() - 1;
            });
            if (rows == rowEntry.length) {
                rowEntry = Arrays.copyOf(rowEntry, rows * 2);
            }
            rowEntry[rows] = e;
            int offset = rows * length;
            if (offset + length > vectors.length) {
                vectors = Arrays.copyOf(vectors, Math.max(1024 * length, vectors.length * 2));
            }
            sent.position(12 + 8 * dims);
            for (int i = 0; i < length; i++) {
                sent.getInt(); // the element's length: 4 for every float4
                vectors[offset + i] = sent.getFloat();
            }
            rows++;
        }

        Slice build() {
            return new Slice(entries.toArray(UUID[]::new), Arrays.copyOf(rowEntry, rows),
                    Arrays.copyOf(vectors, rows * dimension), dimension, Set.of(), Map.of());
        }
    }

    /** Dot product of {@code q} with the vector at {@code offset}; eight accumulators keep the FPU busy. */
    static float dot(float[] q, float[] m, int offset) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        float s4 = 0;
        float s5 = 0;
        float s6 = 0;
        float s7 = 0;
        int n = q.length;
        int i = 0;
        for (; i + 7 < n; i += 8) {
            int j = offset + i;
            s0 += q[i] * m[j];
            s1 += q[i + 1] * m[j + 1];
            s2 += q[i + 2] * m[j + 2];
            s3 += q[i + 3] * m[j + 3];
            s4 += q[i + 4] * m[j + 4];
            s5 += q[i + 5] * m[j + 5];
            s6 += q[i + 6] * m[j + 6];
            s7 += q[i + 7] * m[j + 7];
        }
        for (; i < n; i++) {
            s0 += q[i] * m[offset + i];
        }
        return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    }
}
