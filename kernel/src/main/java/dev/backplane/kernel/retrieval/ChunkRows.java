package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.Jdbc;
import java.util.List;
import java.util.UUID;

/**
 * The rows of {@code retrieval_chunks}, written the same way whichever index searches them: the
 * {@code real[]} column is the record; pgvector's {@code embedding_v}, where it exists, is generated
 * from it by PostgreSQL.
 */
final class ChunkRows {

    private ChunkRows() {
    }

    /** Replaces an entry's chunks in one transaction. */
    static void replace(Jdbc jdbc, UUID tenant, String surface, UUID entryId, List<float[]> chunks) {
        jdbc.inTransaction(c -> {
            Jdbc.update(c, "DELETE FROM retrieval_chunks WHERE surface = ? AND entry_id = ?", surface, entryId);
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
    }

    static void delete(Jdbc jdbc, String surface, UUID entryId) {
        jdbc.update("DELETE FROM retrieval_chunks WHERE surface = ? AND entry_id = ?", surface, entryId);
    }

    private static Float[] boxed(float[] v) {
        Float[] out = new Float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i];
        }
        return out;
    }
}
