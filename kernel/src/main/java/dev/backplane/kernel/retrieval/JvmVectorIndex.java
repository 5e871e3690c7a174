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
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.lucene.util.VectorUtil;
import org.postgresql.PGStatement;

/**
 * Nearest neighbours over a partition's chunks, held in memory per (partition, surface):
 * read from {@code retrieval_chunks} on first use and then kept current entry by entry from the change
 * feed ({@link SliceCache}: a write re-reads that entry's chunks, not the partition); while the feed
 * is down every search reads the chunks afresh.
 * A small slice is scanned exactly; a slice of at least
 * {@code annMinChunks} chunks also gets an HNSW graph ({@link AnnGraph}, built in the background) and,
 * once it is in, is searched by walking the graph (an exact scan is bound by memory bandwidth: 100k
 * chunks are 150 MB per search). Until then, or when a filter leaves too few chunks for a walk, a large
 * slice is scanned exactly on every core.
 */
final class JvmVectorIndex implements VectorIndex {

    /**
     * A slice: its entries and its chunk rows as read — row {@code r} belongs to entry {@code rowEntry[r]},
     * entry {@code e}'s first chunk is row {@code firstRow[e]} — plus the entries changed since:
     * {@code replaced} base entries are skipped, {@code changed} holds their current chunks in order (a
     * deleted entry has none).
     */
    private record Slice(UUID[] entries, int[] rowEntry, int[] firstRow, float[][] vectors, Set<UUID> replaced,
                         Map<UUID, float[][]> changed, AnnGraph ann) {
        int rows() {
            return rowEntry.length;
        }

        Slice with(Set<UUID> touched, Map<UUID, float[][]> current) {
            Set<UUID> r = new HashSet<>(replaced);
            r.addAll(touched);
            Map<UUID, float[][]> c = new HashMap<>(changed);
            touched.forEach(c::remove);
            c.putAll(current);
            return new Slice(entries, rowEntry, firstRow, vectors, Set.copyOf(r), Map.copyOf(c), ann);
        }

        /** Whether searches take the graph (a slice without one is always scanned). */
        boolean warm() {
            return ann == null || ann.ready();
        }
    }

    /** Below this many chunks one thread scans faster than a fork and join. */
    static final int PARALLEL_MIN_CHUNKS = 20_000;
    /**
     * Slices of at least this many chunks get an HNSW graph: below it an exact scan takes a few
     * milliseconds and a graph would only cost memory and a build.
     */
    static final int ANN_MIN_CHUNKS = 20_000;
    /** A walk keeps this many times the chunks it is asked for as candidates (recall against latency). */
    static final int EF_FACTOR = 2;
    private final Jdbc jdbc;
    private final int annMinChunks;
    private final SliceCache<Slice> slices;

    JvmVectorIndex(Jdbc jdbc, ChangeFeed feed) {
        this(jdbc, feed, ANN_MIN_CHUNKS);
    }

    /** @param annMinChunks slices of at least this many chunks get a graph ({@link Integer#MAX_VALUE}: none) */
    JvmVectorIndex(Jdbc jdbc, ChangeFeed feed, int annMinChunks) {
        this.jdbc = jdbc;
        this.annMinChunks = annMinChunks;
        this.slices = new SliceCache<>(feed, new SliceCache.Source<>() {
            @Override
            public Slice load(UUID partition, String surface) {
                return JvmVectorIndex.this.load(partition, surface);
            }

            @Override
            public Slice hold(Slice s) {
                return s.rows() < annMinChunks ? s : new Slice(s.entries(), s.rowEntry(), s.firstRow(), s.vectors(), s.replaced(),
                        s.changed(), AnnGraph.buildInBackground(s.vectors()));
            }

            @Override
            public Slice patch(UUID partition, String surface, Slice slice, Set<UUID> changed) {
                return slice.with(changed, chunks(partition, surface, changed));
            }

            @Override
            public boolean stale(Slice patched) {
                return SliceCache.tooManyChanged(patched.replaced().size(), patched.entries().length);
            }

            @Override
            public long bytes(Slice s) {
                long changed = s.changed().values().stream().flatMap(java.util.Arrays::stream)
                        .mapToLong(v -> 16L + 4L * v.length).sum();
                long dimension = s.rows() == 0 ? 0 : s.vectors()[0].length;
                return (16L + 4L * dimension) * s.rows() + 4L * s.rowEntry().length + 36L * s.entries().length
                        + 48L * s.replaced().size() + changed + (s.ann() == null ? 0 : AnnGraph.bytes(s.rows()));
            }

            @Override
            public long rows(UUID partition, String surface) {
                return ChunkRows.count(jdbc, "retrieval_chunks", partition, surface);
            }
        });
    }

    @Override
    public String kind() {
        return annMinChunks == Integer.MAX_VALUE ? "jvm-exact" : "jvm-hnsw";
    }

    @Override
    public boolean warm(UUID partition, String surface) {
        Slice held = slices.held(partition, surface);
        return held != null && held.warm();
    }

    @Override
    public Optional<List<Scored>> nearestIfReady(List<UUID> partitions, String surface, float[] query, int k,
                                                 Candidates candidates) {
        List<Slice> ready = new ArrayList<>();
        for (UUID partition : partitions.stream().distinct().toList()) {
            Optional<Slice> slice = slices.ifReady(partition, surface);
            if (slice.isEmpty()) {
                return Optional.empty();
            }
            ready.add(slice.get());
        }
        return Optional.of(nearest(ready, query, k, candidates));
    }

    @Override
    public void startWarming(UUID partition, String surface) {
        slices.warm(partition, surface);
    }

    @Override
    public void meterInto(io.micrometer.core.instrument.MeterRegistry registry) {
        slices.meterInto(registry, "retrieval.vector.slices");
        io.micrometer.core.instrument.Gauge.builder("svc.retrieval.graphs.building", AnnGraph::building)
                .description("HNSW graphs queued or being built; their slices are scanned exactly meanwhile")
                .register(registry);
    }

    @Override
    public List<Scored> nearest(List<UUID> partitions, String surface, float[] query, int k, Candidates candidates) {
        return nearest(partitions.stream().distinct().map(p -> slices.current(p, surface)).toList(), query, k, candidates);
    }

    private static List<Scored> nearest(List<Slice> searched, float[] query, int k, Candidates candidates) {
        List<Scored> all = new ArrayList<>();
        for (Slice slice : searched) {
            all.addAll(nearest(slice, query, k, candidates));
        }
        all.sort(Comparator.comparingDouble(Scored::score).reversed());
        return all.size() > k ? all.subList(0, k) : all;
    }

    /** The current chunks of some entries of a partition (an entry with none was deleted). */
    private Map<UUID, float[][]> chunks(UUID partition, String surface, Set<UUID> entries) {
        Map<UUID, List<float[]>> chunks = new HashMap<>();
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT entry_id, array_send(embedding) FROM retrieval_chunks "
                    + "WHERE tenant_id = ? AND surface = ? AND entry_id = ANY (?) ORDER BY entry_id, chunk")) {
                ps.setObject(1, partition);
                ps.setString(2, surface);
                ps.setArray(3, c.createArrayOf("uuid", entries.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        chunks.computeIfAbsent(rs.getObject(1, UUID.class), e -> new ArrayList<>())
                                .add(ChunkRows.floats(ByteBuffer.wrap(rs.getBytes(2))));
                    }
                }
            }
            return null;
        });
        Map<UUID, float[][]> out = new HashMap<>();
        chunks.forEach((entry, list) -> out.put(entry, list.toArray(float[][]::new)));
        return out;
    }

    private static List<Scored> nearest(Slice slice, float[] query, int k, Candidates candidates) {
        PriorityQueue<Scored> top = new PriorityQueue<>(k + 1, Comparator.comparingDouble(Scored::score));
        boolean[] allowed = allowed(slice, candidates);
        float[] best = slice.ann() != null && slice.ann().ready() ? walk(slice, query, k, allowed) : null;
        if (best == null) {
            best = scan(slice, query, allowed);
        }
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
                    bestChunk = Math.max(bestChunk, dot(query, chunk));
                }
                float score = entryScore(dot(query, chunks[0]), bestChunk);
                if (top.size() < k || score > top.peek().score()) {
                    top.add(new Scored(entry, score));
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

    /** Which base entries a search may return (null: all), the replaced ones never. */
    private static boolean[] allowed(Slice slice, Candidates candidates) {
        boolean[] allowed = null;
        if (!(candidates instanceof Candidates.All) || !slice.replaced().isEmpty()) {
            allowed = new boolean[slice.entries().length];
            for (int e = 0; e < allowed.length; e++) {
                UUID entry = slice.entries()[e];
                allowed[e] = candidates.allows(entry) && !slice.replaced().contains(entry);
            }
        }
        return allowed;
    }

    /**
     * Each entry's best chunk similarity among the chunks a walk of the slice's graph finds nearest (NONE
     * for the others); null when the graph declines (a filter leaving fewer chunks than the walk would visit).
     * It asks for enough chunks to cover {@code k} entries at the slice's mean chunks per entry.
     */
    private static float[] walk(Slice slice, float[] query, int k, boolean[] allowed) {
        int rows = slice.rows();
        int[] rowEntry = slice.rowEntry();
        int acceptedRows = rows;
        if (allowed != null) {
            acceptedRows = 0;
            for (int r = 0; r < rows; r++) {
                if (allowed[rowEntry[r]]) {
                    acceptedRows++;
                }
            }
        }
        int perEntry = Math.max(1, (rows + slice.entries().length - 1) / Math.max(1, slice.entries().length));
        int n = Math.min(rows, k * perEntry);
        int[] found = slice.ann().nearest(query, n, n * EF_FACTOR, allowed == null ? null : r -> allowed[rowEntry[r]],
                acceptedRows);
        if (found == null) {
            return null;
        }
        float[] best = new float[slice.entries().length];
        Arrays.fill(best, NONE);
        for (int r : found) {
            int e = rowEntry[r];
            best[e] = Math.max(best[e], dot(query, slice.vectors()[r]));
        }
        for (int e = 0; e < best.length; e++) {
            if (best[e] > NONE) {
                int first = slice.firstRow()[e];
                best[e] = entryScore(first == NO_ROW ? best[e] : dot(query, slice.vectors()[first]), best[e]);
            }
        }
        return best;
    }

    /** Each entry's score ({@link #entryScore}) over all rows, a large slice on every core. */
    private static float[] scan(Slice slice, float[] query, boolean[] allowed) {
        int rows = slice.rows();
        int n = slice.entries().length;
        int parts = rows < PARALLEL_MIN_CHUNKS ? 1 : Runtime.getRuntime().availableProcessors();
        boolean[] only = allowed;
        float[] bestAndFirst = IntStream.range(0, parts).parallel()
                .mapToObj(p -> scan(slice, query, only, (int) ((long) rows * p / parts), (int) ((long) rows * (p + 1) / parts)))
                .reduce((a, b) -> {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = Math.max(a[i], b[i]);
                    }
                    return a;
                }).orElseGet(() -> new float[2 * n]);
        float[] scores = new float[n];
        for (int e = 0; e < n; e++) {
            float best = bestAndFirst[e];
            float first = bestAndFirst[n + e];
            scores[e] = best == NONE ? NONE : entryScore(first == NONE ? best : first, best);
        }
        return scores;
    }

    /** Below any cosine: an entry with no allowed chunk in the rows scanned. */
    private static final float NONE = -2;

    /**
     * Each entry's best chunk similarity over rows {@code from .. to-1} at {@code [e]}, its first chunk's at
     * {@code [n + e]} when that row is among them (NONE where it has none there).
     */
    private static float[] scan(Slice slice, float[] query, boolean[] allowed, int from, int to) {
        int n = slice.entries().length;
        float[] bestAndFirst = new float[2 * n];
        Arrays.fill(bestAndFirst, NONE);
        int[] rowEntry = slice.rowEntry();
        int[] firstRow = slice.firstRow();
        float[][] vectors = slice.vectors();
        for (int r = from; r < to; r++) {
            int e = rowEntry[r];
            if (allowed == null || allowed[e]) {
                float similarity = dot(query, vectors[r]);
                bestAndFirst[e] = Math.max(bestAndFirst[e], similarity);
                if (firstRow[e] == r) {
                    bestAndFirst[n + e] = similarity;
                }
            }
        }
        return bestAndFirst;
    }

    /**
     * An entry's dense score: the mean of its first chunk's similarity and its best chunk's. The first chunk
     * (title and opening) says what the entry is about; the best lets a long entry be found by a later
     * section. The best chunk alone let fragments of long entries outrank whole matching ones: BEIR
     * ArguAna (all 1,406 queries, 3,877 of 8,674 arguments longer than one chunk) scores nDCG@10 0.466 by
     * the best chunk, 0.489 by the first chunk alone, 0.489 by this mean, and 0.455 by the mean vector.
     */
    static float entryScore(float first, float best) {
        return (first + best) / 2;
    }

    /** An entry without a first chunk row (rows written by hand); its score is then its best chunk's. */
    static final int NO_ROW = -1;

    /**
     * Reads the slice as {@code array_send} bytes (the binary array format: a 20-byte header for one
     * dimension, then a length and a big-endian float per element) — no boxed Float per element —
     * transferred in binary and streamed in batches, in whatever order the rows come (sorting 100k
     * rows of 1.5 KB would spill to disk on the server).
     */
    private Slice load(UUID tenant, String surface) {
        SliceBuilder slice = new SliceBuilder();
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT entry_id, array_send(embedding), chunk = 0 "
                    + "FROM retrieval_chunks WHERE tenant_id = ? AND surface = ?")) {
                ps.unwrap(PGStatement.class).setPrepareThreshold(-1); // results in binary from the first execution
                ps.setFetchSize(2_000);
                ps.setObject(1, tenant);
                ps.setString(2, surface);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        slice.add(rs.getObject(1, UUID.class), ByteBuffer.wrap(rs.getBytes(2)), rs.getBoolean(3));
                    }
                }
            }
            return null;
        });
        return slice.build();
    }

    /** Accumulates chunk rows, in any order, into the arrays of a {@link Slice}. */
    private static final class SliceBuilder {
        private final List<UUID> entries = new ArrayList<>();
        private final Map<UUID, Integer> index = new HashMap<>();
        private final List<float[]> vectors = new ArrayList<>();
        private int[] rowEntry = new int[1024];
        private int[] firstRow = new int[1024];

        {
            Arrays.fill(firstRow, NO_ROW);
        }
        private int dimension;
        private int rows;

        void add(UUID entryId, ByteBuffer sent, boolean first) throws SQLException {
            int length = ChunkRows.length(sent);
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
            if (e == firstRow.length) {
                firstRow = Arrays.copyOf(firstRow, e * 2);
                Arrays.fill(firstRow, e, firstRow.length, NO_ROW);
            }
            if (first) {
                firstRow[e] = rows;
            }
            float[] vector = new float[length];
            ChunkRows.read(sent, vector, 0);
            vectors.add(vector);
            rows++;
        }

        Slice build() {
            return new Slice(entries.toArray(UUID[]::new), Arrays.copyOf(rowEntry, rows),
                    Arrays.copyOf(firstRow, entries.size()), vectors.toArray(float[][]::new),
                    Set.of(), Map.of(), null);
        }
    }

    /**
     * Dot product (the cosine of unit vectors) through Lucene's {@link VectorUtil}: SIMD through the Vector
     * API when the JVM runs with {@code --add-modules jdk.incubator.vector} (the launchers do), a plain
     * loop otherwise.
     */
    static float dot(float[] q, float[] v) {
        return VectorUtil.dotProduct(q, v);
    }
}
