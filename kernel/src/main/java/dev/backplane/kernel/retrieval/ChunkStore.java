package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The SQL of an indexed entry's rows, written the same way whichever index searches them: its lexemes in
 * {@code retrieval_docs} and its chunks in {@code retrieval_chunks}, whose {@code real[]} column is the
 * record (pgvector's {@code embedding_v}, where it exists, is generated from it by PostgreSQL).
 */
final class ChunkStore {

    /** How many chunks one partition's surface holds. */
    record PartitionSize(UUID partition, String surface, long chunks) {
    }

    private final Jdbc jdbc;

    ChunkStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Replaces an entry's lexical record and chunks on the caller's connection (inside its transaction): its
     * vectors of each model in {@code byModel} (the active one, and the one filling in while the model changes),
     * every other model's gone.
     */
    static void replaceIn(Connection c, UUID tenant, String surface, UUID entryId, String text,
                          Map<String, List<float[]>> byModel) throws SQLException {
        Jdbc.update(c, "INSERT INTO retrieval_docs (surface, entry_id, tenant_id, tsv) "
                + "VALUES (?, ?, ?, to_tsvector('english', ?)) ON CONFLICT (surface, entry_id) "
                + "DO UPDATE SET tenant_id = EXCLUDED.tenant_id, tsv = EXCLUDED.tsv", surface, entryId, tenant, text);
        Jdbc.update(c, "DELETE FROM retrieval_chunks WHERE surface = ? AND entry_id = ?", surface, entryId);
        for (Map.Entry<String, List<float[]>> m : byModel.entrySet()) {
            insert(c, tenant, surface, entryId, m.getKey(), m.getValue());
        }
    }

    /** An entry's chunk vectors of one model. */
    static void insert(Connection c, UUID tenant, String surface, UUID entryId, String model, List<float[]> chunks)
            throws SQLException {
        try (var ps = c.prepareStatement("INSERT INTO retrieval_chunks (surface, entry_id, tenant_id, model, chunk, "
                + "embedding) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < chunks.size(); i++) {
                ps.setString(1, surface);
                ps.setObject(2, entryId);
                ps.setObject(3, tenant);
                ps.setString(4, model);
                ps.setInt(5, i);
                ps.setArray(6, c.createArrayOf("float4", ChunkRows.boxed(chunks.get(i))));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** How many lexical records a partition's surface has: one count over the {@code (tenant_id, surface)} index. */
    static long docs(Jdbc jdbc, UUID partition, String surface) {
        return jdbc.queryOne("SELECT count(*) FROM retrieval_docs WHERE tenant_id = ? AND surface = ?",
                rs -> rs.getLong(1), partition, surface).orElse(0L);
    }

    /** How many chunk vectors of one model a partition's surface has. */
    static long chunks(Jdbc jdbc, UUID partition, String surface, String model) {
        return jdbc.queryOne("SELECT count(*) FROM retrieval_chunks WHERE tenant_id = ? AND surface = ? AND model = ?",
                rs -> rs.getLong(1), partition, surface, model).orElse(0L);
    }

    /** Whether an entry has its lexical record. */
    boolean isIndexed(String surface, UUID entryId) {
        return jdbc.queryOne("SELECT 1 FROM retrieval_docs WHERE surface = ? AND entry_id = ?", rs -> 1, surface,
                entryId).isPresent();
    }

    /** Deletes an entry's rows in a transaction of its own. */
    void delete(String surface, UUID entryId) {
        jdbc.inTransaction(c -> {
            delete(c, surface, entryId);
            return null;
        });
    }

    static void delete(Connection c, String surface, UUID entryId) throws SQLException {
        Jdbc.update(c, "DELETE FROM retrieval_docs WHERE surface = ? AND entry_id = ?", surface, entryId);
        Jdbc.update(c, "DELETE FROM retrieval_chunks WHERE surface = ? AND entry_id = ?", surface, entryId);
    }

    /** The partitions' surfaces of more than {@code minChunks} chunks of {@code model}, largest first. */
    List<PartitionSize> largerThan(long minChunks, String model) {
        return jdbc.query("SELECT tenant_id, surface, count(*) FROM retrieval_chunks WHERE model = ? "
                + "GROUP BY tenant_id, surface HAVING count(*) > ? ORDER BY 3 DESC",
                rs -> new PartitionSize(rs.getObject(1, UUID.class), rs.getString(2), rs.getLong(3)), model, minChunks);
    }
}
