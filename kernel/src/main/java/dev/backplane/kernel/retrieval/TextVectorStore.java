package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.Jdbc;
import java.nio.ByteBuffer;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** SQL of {@link TextVectors}: the content-addressed vectors of short texts in {@code retrieval_text_vectors}. */
final class TextVectorStore {

    private final Jdbc jdbc;

    TextVectorStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** The stored vectors of those keys that have one, by key. */
    Map<String, float[]> read(String[] keys) {
        Map<String, float[]> out = new HashMap<>();
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT text_sha256, array_send(embedding) "
                    + "FROM retrieval_text_vectors WHERE text_sha256 = ANY (?)")) {
                ps.setArray(1, c.createArrayOf("text", keys));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), ChunkRows.floats(ByteBuffer.wrap(rs.getBytes(2))));
                    }
                }
            }
            return null;
        });
        return out;
    }

    /** Stores vectors under their keys, in one batch; a key already stored keeps its vector. */
    void write(List<String> keys, String model, List<float[]> vectors) {
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO retrieval_text_vectors (text_sha256, model, "
                    + "embedding) VALUES (?, ?, ?) ON CONFLICT (text_sha256) DO NOTHING")) {
                for (int i = 0; i < keys.size(); i++) {
                    ps.setString(1, keys.get(i));
                    ps.setString(2, model);
                    ps.setArray(3, c.createArrayOf("float4", ChunkRows.boxed(vectors.get(i))));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }
}
