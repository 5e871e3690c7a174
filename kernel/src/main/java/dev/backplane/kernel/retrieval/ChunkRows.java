package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.Jdbc;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

/**
 * The rows of an indexed entry, written the same way whichever index searches them: its lexemes in
 * {@code retrieval_docs} and its chunks in {@code retrieval_chunks}, whose {@code real[]} column is the
 * record (pgvector's {@code embedding_v}, where it exists, is generated from it by PostgreSQL).
 */
final class ChunkRows {

    private ChunkRows() {
    }

    /** Replaces an entry's lexical record and chunks on the caller's connection (inside its transaction). */
    static void replaceIn(java.sql.Connection c, UUID tenant, String surface, UUID entryId, String text,
                          List<float[]> chunks) throws java.sql.SQLException {
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
                ps.setArray(5, c.createArrayOf("float4", boxed(chunks.get(i))));
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

    static void delete(Jdbc jdbc, String surface, UUID entryId) {
        jdbc.inTransaction(c -> {
            delete(c, surface, entryId);
            return null;
        });
    }

    static void delete(java.sql.Connection c, String surface, UUID entryId) throws java.sql.SQLException {
        Jdbc.update(c, "DELETE FROM retrieval_docs WHERE surface = ? AND entry_id = ?", surface, entryId);
        Jdbc.update(c, "DELETE FROM retrieval_chunks WHERE surface = ? AND entry_id = ?", surface, entryId);
    }

    /**
     * The length of a vector sent as {@code array_send} bytes (the binary array format: a 20-byte header
     * for one dimension, then a length and a big-endian float per element).
     */
    static int length(ByteBuffer sent) {
        return sent.getInt(0) == 0 ? 0 : sent.getInt(12);
    }

    /** Reads a vector sent as {@code array_send} bytes into {@code into} from {@code offset} — no boxed Float. */
    static void read(ByteBuffer sent, float[] into, int offset) {
        int length = length(sent);
        sent.position(12 + 8 * sent.getInt(0));
        for (int i = 0; i < length; i++) {
            sent.getInt(); // the element's length: 4 for every float4
            into[offset + i] = sent.getFloat();
        }
    }

    /** A vector from its {@code array_send} bytes. */
    static float[] floats(ByteBuffer sent) {
        float[] out = new float[length(sent)];
        read(sent, out, 0);
        return out;
    }

    static Float[] boxed(float[] v) {
        Float[] out = new Float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i];
        }
        return out;
    }
}
