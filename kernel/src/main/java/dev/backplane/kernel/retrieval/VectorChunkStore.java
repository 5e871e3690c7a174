package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.Jdbc;
import java.nio.ByteBuffer;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.postgresql.PGStatement;

/** SQL of the {@link JvmVectorIndex}: reads the chunk vectors of {@code retrieval_chunks} into its slices. */
final class VectorChunkStore {

    private final Jdbc jdbc;
    private final String model;

    /** Reads the vectors of {@code model} only. */
    VectorChunkStore(Jdbc jdbc, String model) {
        this.jdbc = jdbc;
        this.model = model;
    }

    /**
     * Reads the slice as {@code array_send} bytes (the binary array format: a 20-byte header for one
     * dimension, then a length and a big-endian float per element) — no boxed Float per element —
     * transferred in binary and streamed in batches, in whatever order the rows come (sorting 100k
     * rows of 1.5 KB would spill to disk on the server).
     */
    VectorSlice load(UUID tenant, String surface) {
        VectorSlice.Builder slice = new VectorSlice.Builder();
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT entry_id, array_send(embedding), chunk = 0 "
                    + "FROM retrieval_chunks WHERE tenant_id = ? AND surface = ? AND model = ?")) {
                ps.unwrap(PGStatement.class).setPrepareThreshold(-1); // results in binary from the first execution
                ps.setFetchSize(2_000);
                ps.setObject(1, tenant);
                ps.setString(2, surface);
                ps.setString(3, model);
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

    /** The current chunks of some entries of a partition (an entry with none was deleted). */
    Map<UUID, float[][]> chunks(UUID partition, String surface, Set<UUID> entries) {
        Map<UUID, List<float[]>> chunks = new HashMap<>();
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT entry_id, array_send(embedding) FROM retrieval_chunks "
                    + "WHERE tenant_id = ? AND surface = ? AND model = ? AND entry_id = ANY (?) ORDER BY entry_id, chunk")) {
                ps.setObject(1, partition);
                ps.setString(2, surface);
                ps.setString(3, model);
                ps.setArray(4, c.createArrayOf("uuid", entries.toArray()));
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

    /** How many chunk rows a partition's surface has. */
    long rows(UUID partition, String surface) {
        return ChunkStore.chunks(jdbc, partition, surface, model);
    }
}
