package dev.backplane.kernel.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Migration V047: pgvector's HNSW index over {@code retrieval_chunks.embedding_v}, where V046 made that
 * column (the server has pgvector); elsewhere nothing. Java, not SQL, because the statement must be both
 * conditional and concurrent: {@code CREATE INDEX CONCURRENTLY} cannot run inside a transaction, so not
 * in a {@code DO} block either, and a plain SQL file has no {@code IF}. It runs outside a transaction
 * ({@link #canExecuteInTransaction}), and nothing here blocks writes on a large table:
 * <ol>
 *   <li>where V046 added {@code embedding_v} as a plain column filled by a trigger (not a generated column,
 *   whose ADD rewrites the table under an exclusive lock), the rows written before the trigger are filled
 *   in batches of {@value #BATCH} along the primary key, each batch its own short transaction;</li>
 *   <li>an index a failed concurrent build left INVALID is dropped concurrently;</li>
 *   <li>{@code CREATE INDEX CONCURRENTLY IF NOT EXISTS}: writes go on while the graph is built. A database on
 *   which the kernel's start-time set-up (before V047) already built the index keeps it.</li>
 * </ol>
 */
final class V047RetrievalHnswIndex implements JavaMigration {

    static final int BATCH = 5_000;
    private static final int DIMENSION = 384;

    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("047");
    }

    @Override
    public String getDescription() {
        return "retrieval pgvector hnsw index";
    }

    @Override
    public Integer getChecksum() {
        return 47_001;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return false;
    }

    @Override
    public void migrate(Context context) throws SQLException {
        Connection c = context.getConnection();
        String generated = column(c);
        if (generated == null) {
            return; // no pgvector on this server: retrieval keeps its in-process index
        }
        if (generated.isEmpty()) {
            backfill(c);
        }
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT NOT indisvalid FROM pg_index "
                    + "WHERE indexrelid = to_regclass('retrieval_chunks_hnsw')")) {
                if (rs.next() && rs.getBoolean(1)) {
                    s.execute("DROP INDEX CONCURRENTLY IF EXISTS retrieval_chunks_hnsw");
                }
            }
            s.execute("CREATE INDEX CONCURRENTLY IF NOT EXISTS retrieval_chunks_hnsw ON retrieval_chunks "
                    + "USING hnsw (embedding_v vector_cosine_ops)");
        }
        commitIfNeeded(c);
    }

    /** {@code pg_attribute.attgenerated} of the column ('' plain, 's' generated), or null when it is missing. */
    private static String column(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT attgenerated::text FROM pg_attribute "
                + "WHERE attrelid = 'retrieval_chunks'::regclass AND attname = 'embedding_v' AND NOT attisdropped")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static void backfill(Connection c) throws SQLException {
        String surface = "";
        UUID entry = new UUID(0, 0);
        int chunk = -1;
        try (PreparedStatement batch = c.prepareStatement("""
                WITH batch AS (SELECT surface, entry_id, chunk FROM retrieval_chunks
                                WHERE (surface, entry_id, chunk) > (?, ?, ?)
                                ORDER BY surface, entry_id, chunk LIMIT ?),
                     filled AS (UPDATE retrieval_chunks r SET embedding_v = r.embedding::vector(%d) FROM batch b
                                 WHERE r.surface = b.surface AND r.entry_id = b.entry_id AND r.chunk = b.chunk
                                   AND r.embedding_v IS NULL)
                SELECT surface, entry_id, chunk FROM batch ORDER BY surface DESC, entry_id DESC, chunk DESC LIMIT 1
                """.formatted(DIMENSION))) {
            while (true) {
                batch.setString(1, surface);
                batch.setObject(2, entry);
                batch.setInt(3, chunk);
                batch.setInt(4, BATCH);
                try (ResultSet rs = batch.executeQuery()) {
                    if (!rs.next()) {
                        break;
                    }
                    surface = rs.getString(1);
                    entry = rs.getObject(2, UUID.class);
                    chunk = rs.getInt(3);
                }
                commitIfNeeded(c);
            }
        }
    }

    /** Each batch is its own transaction, whether Flyway hands over the connection in auto-commit or not. */
    private static void commitIfNeeded(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }
}
