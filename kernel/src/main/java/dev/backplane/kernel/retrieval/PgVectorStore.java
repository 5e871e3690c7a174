package dev.backplane.kernel.retrieval;

import com.pgvector.PGvector;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL of {@link PgVectorIndex}: the catalogue reads that tell whether pgvector can serve, and the nearest-chunk
 * queries over {@code retrieval_chunks.embedding_v} (the HNSW walk, the exact scan, first chunks, a bounded count).
 * The search statements take the caller's connection, so that one search is one transaction.
 */
final class PgVectorStore {

    /** The {@code vector} extension's default version and the one created in this database (null: none). */
    record Extension(String defaultVersion, String installedVersion) {
    }

    private final Jdbc jdbc;

    PgVectorStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** The extension as the server offers it, if it does. */
    Optional<Extension> extension() {
        return jdbc.query("SELECT default_version, installed_version "
                + "FROM pg_available_extensions WHERE name = 'vector'", rs -> new Extension(rs.getString(1),
                rs.getString(2))).stream().findFirst();
    }

    /** The type of {@code retrieval_chunks.embedding_v} ({@code vector(384)}), if the column exists. */
    Optional<String> embeddingType() {
        return jdbc.queryOne("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                + "WHERE attrelid = 'retrieval_chunks'::regclass AND attname = 'embedding_v' AND NOT attisdropped",
                rs -> rs.getString(1));
    }

    /** Whether the HNSW index {@code retrieval_chunks_hnsw} exists and is valid. */
    boolean hnswValid() {
        return jdbc.queryOne("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('retrieval_chunks_hnsw')",
                rs -> rs.getBoolean(1)).orElse(false);
    }

    /**
     * The HNSW walk: the {@code limit} chunks of the partitions nearest to {@code q} (iterative scan, relaxed
     * order, {@code efSearch} candidates), each scored by its cosine similarity.
     */
    static List<VectorIndex.Scored> walk(Connection c, UUID[] parts, String surface, String model, PGvector q,
                                         int limit, int efSearch) throws SQLException {
        Jdbc.query(c, "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                + "set_config('hnsw.ef_search', ?, true)", rs -> null, String.valueOf(efSearch));
        return Jdbc.query(c, """
                SELECT entry_id, embedding_v <=> ? AS distance FROM retrieval_chunks
                 WHERE tenant_id = ANY (?) AND surface = ? AND model = ?
                 ORDER BY embedding_v <=> ? LIMIT ?""", PgVectorStore::scored, q, parts, surface, model, q, limit);
    }

    /**
     * Every entry of the partitions (of {@code ids}, when not null) by exact distance, the best {@code limit};
     * grouping by entry keeps the planner off the HNSW index. An entry's distance as
     * {@link JvmVectorIndex#entryScore} has it: the mean of its first and its best chunk's.
     */
    static List<VectorIndex.Scored> exact(Connection c, UUID[] parts, String surface, String model, PGvector q,
                                          UUID[] ids, int limit) throws SQLException {
        return Jdbc.query(c, """
                SELECT entry_id, (min(d) + coalesce(min(d) FILTER (WHERE chunk = 0), min(d))) / 2 AS distance
                  FROM (SELECT entry_id, chunk, embedding_v <=> ? AS d FROM retrieval_chunks
                         WHERE tenant_id = ANY (?) AND surface = ? AND model = ?
                           AND (CAST(? AS uuid[]) IS NULL OR entry_id = ANY (?))) x
                 GROUP BY entry_id ORDER BY distance, entry_id LIMIT ?""", PgVectorStore::scored, q, parts, surface,
                model, ids, ids, limit);
    }

    /** The cosine similarity of the first chunk of each of {@code entries}, read by primary key. */
    static Map<UUID, Double> firstChunks(Connection c, String surface, String model, PGvector q, UUID[] entries)
            throws SQLException {
        Map<UUID, Double> first = new HashMap<>();
        Jdbc.query(c, "SELECT entry_id, 1 - (embedding_v <=> ?) FROM retrieval_chunks WHERE surface = ? AND model = ? "
                + "AND chunk = 0 AND entry_id = ANY (?)", rs -> first.put(rs.getObject(1, UUID.class), rs.getDouble(2)), q,
                surface, model, entries);
        return first;
    }

    /** How many chunks the partitions hold, counted no further than {@code bound}. */
    static int chunksUpTo(Connection c, UUID[] parts, String surface, String model, int bound) throws SQLException {
        return Jdbc.query(c, "SELECT count(*) FROM (SELECT 1 FROM retrieval_chunks WHERE tenant_id = ANY (?) "
                + "AND surface = ? AND model = ? LIMIT ?) x", rs -> rs.getInt(1), parts, surface, model, bound).getFirst();
    }

    private static VectorIndex.Scored scored(ResultSet rs) throws SQLException {
        return new VectorIndex.Scored(rs.getObject(1, UUID.class), 1 - rs.getDouble(2));
    }
}
