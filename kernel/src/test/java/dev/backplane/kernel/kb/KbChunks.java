package dev.backplane.kernel.kb;

import dev.backplane.kernel.testing.TestKernel;
import java.util.List;
import java.util.UUID;

/** The row versions (xmin) of a kb entry's retrieval chunks: the same versions mean it was not re-indexed. */
final class KbChunks {

    private KbChunks() {
    }

    static List<String> versions(TestKernel kernel, UUID tenant, String slug) {
        return kernel.jdbc().query("SELECT c.xmin::text FROM retrieval_chunks c "
                + "JOIN kb_entries e ON e.id = c.entry_id WHERE e.tenant_id = ? AND e.slug = ?",
                rs -> rs.getString(1), tenant, slug);
    }
}
