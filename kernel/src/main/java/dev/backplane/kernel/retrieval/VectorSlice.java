package dev.backplane.kernel.retrieval;

import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A slice of the {@link JvmVectorIndex}: a partition's entries and its chunk rows as read — row {@code r}
 * belongs to entry {@code rowEntry[r]}, entry {@code e}'s first chunk is row {@code firstRow[e]} — plus the
 * entries changed since: {@code replaced} base entries are skipped, {@code changed} holds their current chunks
 * in order (a deleted entry has none). It owns which slices get a graph, when a patched one is re-read, and
 * what it costs in memory.
 */
record VectorSlice(UUID[] entries, int[] rowEntry, int[] firstRow, float[][] vectors, Set<UUID> replaced,
                   Map<UUID, float[][]> changed, AnnGraph ann) {

    /** An entry without a first chunk row (rows written by hand); its score is then its best chunk's. */
    static final int NO_ROW = -1;

    int rows() {
        return rowEntry.length;
    }

    /** The slice with {@code touched} entries replaced by their {@code current} chunks (none: deleted). */
    VectorSlice with(Set<UUID> touched, Map<UUID, float[][]> current) {
        Set<UUID> r = new HashSet<>(replaced);
        r.addAll(touched);
        Map<UUID, float[][]> c = new HashMap<>(changed);
        touched.forEach(c::remove);
        c.putAll(current);
        return new VectorSlice(entries, rowEntry, firstRow, vectors, Set.copyOf(r), Map.copyOf(c), ann);
    }

    /** Whether a slice of this many rows gets an HNSW graph: below {@code annMinChunks} a scan is cheap enough. */
    static boolean wantsGraph(int rows, int annMinChunks) {
        return rows >= annMinChunks;
    }

    /** The slice as the cache holds it: with a graph building in the background when it is large enough. */
    VectorSlice held(int annMinChunks) {
        return !wantsGraph(rows(), annMinChunks) ? this : new VectorSlice(entries, rowEntry, firstRow, vectors,
                replaced, changed, AnnGraph.buildInBackground(vectors));
    }

    /** Whether searches take the graph (a slice without one is always scanned). */
    boolean warm() {
        return ann == null || ann.ready();
    }

    /** Whether so many entries changed since the read that the slice is read afresh instead of patched. */
    boolean stale() {
        return SliceChanges.tooManyChanged(replaced.size(), entries.length);
    }

    /** An estimate of the memory the slice holds. */
    long bytes() {
        long changedBytes = changed.values().stream().flatMap(Arrays::stream).mapToLong(v -> 16L + 4L * v.length).sum();
        long dimension = rows() == 0 ? 0 : vectors[0].length;
        return (16L + 4L * dimension) * rows() + 4L * rowEntry.length + 36L * entries.length
                + 48L * replaced.size() + changedBytes + (ann == null ? 0 : AnnGraph.bytes(rows()));
    }

    /** Accumulates chunk rows, in any order, into the arrays of a {@link VectorSlice}. */
    static final class Builder {
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

        /** Adds a chunk row, its vector as {@code array_send} bytes; {@code first} marks the entry's chunk 0. */
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

        VectorSlice build() {
            return new VectorSlice(entries.toArray(UUID[]::new), Arrays.copyOf(rowEntry, rows),
                    Arrays.copyOf(firstRow, entries.size()), vectors.toArray(float[][]::new),
                    Set.of(), Map.of(), null);
        }
    }
}
