package dev.backplane.bench;

import dev.backplane.kernel.persistence.Jdbc;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.UUID;
import java.util.function.IntFunction;

/** Rows straight into the kb tables, as KbService writes them (one chunk per entry), in batches. */
final class KbSeed {

    private KbSeed() {
    }

    /** @param model the name of the embedding model {@code vector} comes from (the kernel's {@code retrieval.model}) */
    static void seed(Jdbc jdbc, UUID tenant, String model, int n, IntFunction<float[]> vector, int batch) {
        seed(jdbc, tenant, model, n, vector, batch, "kb", "/", "INSERT INTO kb_entries (id, tenant_id, slug, body, body_hash, "
                + "metadata, created_by, updated_by) VALUES (?, ?, ?, ?, ?, CAST(? AS jsonb), 'bench', 'bench')",
                (kb, i) -> {
                    String body = KbCorpus.body(i);
                    kb.setString(3, KbCorpus.slug(i));
                    kb.setString(4, body);
                    kb.setString(5, sha256(body));
                    kb.setString(6, "{\"kind\": \"" + (i % 2 == 0 ? "runbook" : "known-issue") + "\"}");
                });
    }

    /** Tenant-scope memory entries (their vectors in the tenant's partition of surface memory). */
    static void seedMemory(Jdbc jdbc, UUID tenant, String model, int n, IntFunction<float[]> vector, int batch) {
        seed(jdbc, tenant, model, n, vector, batch, "memory", "/memory/", "INSERT INTO memory_entries (id, scope, tenant_id, "
                + "slug, body, created_by) VALUES (?, 'tenant', ?, ?, ?, 'bench')", (memory, i) -> {
                    memory.setString(3, KbCorpus.slug(i));
                    memory.setString(4, KbCorpus.body(i));
                });
    }

    /** Sets entry {@code i}'s own columns from the third on (the first two are its id and tenant). */
    @FunctionalInterface
    private interface EntryColumns {
        void set(PreparedStatement entry, int i) throws SQLException;
    }

    /**
     * {@code n} entries of {@code surface} in transactions of {@code batch}: each its row ({@code entrySql}), its
     * one chunk with {@code vector(i)} and its lexical record; ids are derived from the tenant, {@code idInfix}
     * and i, so a re-seed writes the same ids.
     */
    private static void seed(Jdbc jdbc, UUID tenant, String model, int n, IntFunction<float[]> vector, int batch,
                             String surface, String idInfix, String entrySql, EntryColumns columns) {
        for (int from = 0; from < n; from += batch) {
            int to = Math.min(n, from + batch);
            int start = from;
            jdbc.inTransaction(c -> {
                try (var entry = c.prepareStatement(entrySql);
                     // the vectors are the model's (KbCorpus composes them from its embeddings): a search reads only
                     // the chunks of the model the kernel runs
                     var chunk = c.prepareStatement("INSERT INTO retrieval_chunks (surface, entry_id, tenant_id, model, "
                             + "chunk, embedding) VALUES ('" + surface + "', ?, ?, ?, 0, ?)");
                     var doc = c.prepareStatement(DOC.formatted(surface))) {
                    for (int i = start; i < to; i++) {
                        UUID id = UUID.nameUUIDFromBytes((tenant + idInfix + i).getBytes(StandardCharsets.UTF_8));
                        entry.setObject(1, id);
                        entry.setObject(2, tenant);
                        columns.set(entry, i);
                        entry.addBatch();
                        chunk.setObject(1, id);
                        chunk.setObject(2, tenant);
                        chunk.setString(3, model);
                        chunk.setArray(4, c.createArrayOf("float4", boxed(vector.apply(i))));
                        chunk.addBatch();
                        doc(doc, id, tenant, i);
                    }
                    entry.executeBatch();
                    chunk.executeBatch();
                    doc.executeBatch();
                }
                return null;
            });
        }
    }

    /** The entry's lexical record, as the engine writes it (ChunkStore): the slug's words and the body. */
    private static final String DOC = "INSERT INTO retrieval_docs (surface, entry_id, tenant_id, tsv) "
            + "VALUES ('%s', ?, ?, to_tsvector('english', ?))";

    private static void doc(PreparedStatement doc, UUID id, UUID tenant, int i) throws SQLException {
        doc.setObject(1, id);
        doc.setObject(2, tenant);
        doc.setString(3, KbCorpus.slug(i).replace('-', ' ') + "\n" + KbCorpus.body(i));
        doc.addBatch();
    }

    private static Float[] boxed(float[] v) {
        Float[] out = new Float[v.length];
        for (int d = 0; d < v.length; d++) {
            out[d] = v[d];
        }
        return out;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
