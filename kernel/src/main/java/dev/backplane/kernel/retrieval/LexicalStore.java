package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * SQL of {@link LexicalIndex}: entries' lexemes from {@code retrieval_docs} (the text form of each
 * {@code tsvector}), a query's lexemes as PostgreSQL's English configuration makes them, and PostgreSQL's
 * own full-text ranking over the GIN index (the fallback while the change feed is down).
 */
final class LexicalStore {

    /** Takes an entry's lexemes, one row at a time. */
    interface DocSink {
        void accept(UUID entry, String tsv);
    }

    private final Jdbc jdbc;

    LexicalStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Streams every entry of a partition's surface into {@code sink}, in batches, in whatever order they come. */
    void eachDoc(UUID partition, String surface, DocSink sink) {
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT entry_id, tsv::text FROM retrieval_docs "
                    + "WHERE tenant_id = ? AND surface = ?")) {
                ps.setFetchSize(2_000);
                ps.setObject(1, partition);
                ps.setString(2, surface);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        sink.accept(rs.getObject(1, UUID.class), rs.getString(2));
                    }
                }
            }
            return null;
        });
    }

    /** The current lexemes of some entries of a partition's surface (an entry without a row was deleted). */
    void docs(UUID partition, String surface, Set<UUID> entries, DocSink sink) {
        jdbc.query("SELECT entry_id, tsv::text FROM retrieval_docs WHERE tenant_id = ? AND surface = ? "
                + "AND entry_id = ANY (?)", rs -> {
                    sink.accept(rs.getObject(1, UUID.class), rs.getString(2));
                    return null;
                }, partition, surface, entries.toArray(UUID[]::new));
    }

    /** How many entries a partition's surface has. */
    long rows(UUID partition, String surface) {
        return ChunkStore.docs(jdbc, partition, surface);
    }

    /** A text's {@code tsvector} in PostgreSQL's English configuration, as text. */
    String lexemes(String text) {
        return jdbc.queryOne("SELECT to_tsvector('english', ?)::text", rs -> rs.getString(1), text).orElse("");
    }

    /**
     * PostgreSQL's ranking ({@code ts_rank}, normalised by length) of the entries matching any of {@code terms},
     * restricted to {@code only} and not {@code except} (either null: no restriction); the best {@code k}.
     */
    List<LexicalIndex.Scored> fullText(UUID[] partitions, String surface, String terms, UUID[] only, UUID[] except,
                                       int k) {
        String sql = """
                SELECT entry_id, ts_rank(tsv, x.q, 1) FROM retrieval_docs,
                       (SELECT replace(plainto_tsquery('english', ?)::text, '&', '|')::tsquery AS q) x
                 WHERE tenant_id = ANY (?) AND surface = ? AND tsv @@ x.q
                   AND (CAST(? AS uuid[]) IS NULL OR entry_id = ANY (?))
                   AND (CAST(? AS uuid[]) IS NULL OR NOT (entry_id = ANY (?)))
                 ORDER BY 2 DESC, entry_id LIMIT ?""";
        return jdbc.query(sql, rs -> new LexicalIndex.Scored(rs.getObject(1, UUID.class), rs.getDouble(2)),
                terms, partitions, surface, only, only, except, except, k);
    }
}
