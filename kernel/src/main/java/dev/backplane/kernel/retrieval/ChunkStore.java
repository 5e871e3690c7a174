package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
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

    /** Replaces an entry's lexical record and chunks on the caller's connection (inside its transaction). */
    static void replaceIn(Connection c, UUID tenant, String surface, UUID entryId, String text, List<float[]> chunks)
            throws SQLException {
        Jdbc.update(c, "INSERT INTO retrieval_docs (surface, entry_id, tenant_id, tsv) "
                + "VALUES (?, ?, ?, to_tsvector('english', ?)) ON CONFLICT (surface, entry_id) "
                + "DO UPDATE SET tenant_id = EXCLUDED.tenant_id, tsv = EXCLUDED.tsv", surface, entryId, tenant, text);
        Jdbc.update(c, "DELETE FROM retrieval_chunks WHERE surface = ? AND entry_id = ?", surface, entryId);
        try (var ps = c.prepareStatement("INSERT INTO retrieval_chunks (surface, entry_id, tenant_id, chunk, embedding) "
                + "VALUES (?, ?, ?, ?, ?)")) {
            for (int i = 0; i < chunks.size(); i++) {
                ps.setString(1, surface);
                ps.setObject(2, entryId);
                ps.setObject(3, tenant);
                ps.setInt(4, i);
                ps.setArray(5, c.createArrayOf("float4", ChunkRows.boxed(chunks.get(i))));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * How many rows of {@code table} ({@code retrieval_docs} or {@code retrieval_chunks}) a partition's surface
     * has: one count over the {@code (tenant_id, surface)} index.
     */
    static long count(Jdbc jdbc, String table, UUID partition, String surface) {
        if (!table.equals("retrieval_docs") && !table.equals("retrieval_chunks")) {
            throw new IllegalArgumentException("not a retrieval table: " + table);
        }
        return jdbc.queryOne("SELECT count(*) FROM " + table + " WHERE tenant_id = ? AND surface = ?",
                rs -> rs.getLong(1), partition, surface).orElse(0L);
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

    /** The partitions' surfaces of more than {@code minChunks} chunks, largest first. */
    List<PartitionSize> largerThan(long minChunks) {
        return jdbc.query("SELECT tenant_id, surface, count(*) FROM retrieval_chunks "
                + "GROUP BY tenant_id, surface HAVING count(*) > ? ORDER BY 3 DESC",
                rs -> new PartitionSize(rs.getObject(1, UUID.class), rs.getString(2), rs.getLong(3)), minChunks);
    }
}
