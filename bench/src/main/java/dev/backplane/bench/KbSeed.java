package dev.backplane.bench;

import dev.backplane.kernel.persistence.Jdbc;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.UUID;
import java.util.function.IntFunction;

/** Rows straight into the kb tables, as KbService writes them (one chunk per entry), in batches. */
final class KbSeed {

    private KbSeed() {
    }

    static void seed(Jdbc jdbc, UUID tenant, int n, IntFunction<float[]> vector, int batch) {
        for (int from = 0; from < n; from += batch) {
            int to = Math.min(n, from + batch);
            int start = from;
            jdbc.inTransaction(c -> {
                try (var kb = c.prepareStatement("INSERT INTO kb_entries (id, tenant_id, slug, body, body_hash, metadata, "
                        + "created_by, updated_by) VALUES (?, ?, ?, ?, ?, CAST(? AS jsonb), 'bench', 'bench')");
                     var chunk = c.prepareStatement("INSERT INTO retrieval_chunks (surface, entry_id, tenant_id, chunk, "
                             + "embedding) VALUES ('kb', ?, ?, 0, ?)");
                     var doc = c.prepareStatement(DOC.formatted("kb"))) {
                    for (int i = start; i < to; i++) {
                        UUID id = UUID.nameUUIDFromBytes((tenant + "/" + i).getBytes(StandardCharsets.UTF_8));
                        String body = KbCorpus.body(i);
                        kb.setObject(1, id);
                        kb.setObject(2, tenant);
                        kb.setString(3, KbCorpus.slug(i));
                        kb.setString(4, body);
                        kb.setString(5, sha256(body));
                        kb.setString(6, "{\"kind\": \"" + (i % 2 == 0 ? "runbook" : "known-issue") + "\"}");
                        kb.addBatch();
                        chunk.setObject(1, id);
                        chunk.setObject(2, tenant);
                        chunk.setArray(3, c.createArrayOf("float4", boxed(vector.apply(i))));
                        chunk.addBatch();
                        doc(doc, id, tenant, i);
                    }
                    kb.executeBatch();
                    chunk.executeBatch();
                    doc.executeBatch();
                }
                return null;
            });
        }
    }

    /** Tenant-scope memory entries (their vectors in the tenant's partition of surface memory). */
    static void seedMemory(Jdbc jdbc, UUID tenant, int n, IntFunction<float[]> vector, int batch) {
        for (int from = 0; from < n; from += batch) {
            int to = Math.min(n, from + batch);
            int start = from;
            jdbc.inTransaction(c -> {
                try (var memory = c.prepareStatement("INSERT INTO memory_entries (id, scope, tenant_id, slug, body, "
                        + "created_by) VALUES (?, 'tenant', ?, ?, ?, 'bench')");
                     var chunk = c.prepareStatement("INSERT INTO retrieval_chunks (surface, entry_id, tenant_id, chunk, "
                             + "embedding) VALUES ('memory', ?, ?, 0, ?)");
                     var doc = c.prepareStatement(DOC.formatted("memory"))) {
                    for (int i = start; i < to; i++) {
                        UUID id = UUID.nameUUIDFromBytes((tenant + "/memory/" + i).getBytes(StandardCharsets.UTF_8));
                        memory.setObject(1, id);
                        memory.setObject(2, tenant);
                        memory.setString(3, KbCorpus.slug(i));
                        memory.setString(4, KbCorpus.body(i));
                        memory.addBatch();
                        chunk.setObject(1, id);
                        chunk.setObject(2, tenant);
                        chunk.setArray(3, c.createArrayOf("float4", boxed(vector.apply(i))));
                        chunk.addBatch();
                        doc(doc, id, tenant, i);
                    }
                    memory.executeBatch();
                    chunk.executeBatch();
                    doc.executeBatch();
                }
                return null;
            });
        }
    }

    /** The entry's lexical record, as the engine writes it (ChunkRows): the slug's words and the body. */
    private static final String DOC = "INSERT INTO retrieval_docs (surface, entry_id, tenant_id, tsv) "
            + "VALUES ('%s', ?, ?, to_tsvector('english', ?))";

    private static void doc(java.sql.PreparedStatement doc, UUID id, UUID tenant, int i) throws java.sql.SQLException {
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
