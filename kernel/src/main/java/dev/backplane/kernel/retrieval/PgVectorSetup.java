package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.Jdbc;
import java.util.Optional;

/**
 * Whether pgvector can serve nearest neighbours here: the extension (recent enough), the generated
 * {@code embedding_v} column and a valid HNSW index, all made by the migrations V046 and V047. Reads the
 * catalogue only, so a replica never runs DDL at start; the answer is {@link Ready} or why not.
 */
final class PgVectorSetup {

    /** The outcome of {@link #setUp}. */
    sealed interface Setup permits Ready, Unavailable {
    }

    record Ready(Jdbc jdbc, String version) implements Setup {

        /** The index over {@code model}'s vectors. */
        PgVectorIndex index(String model) {
            return new PgVectorIndex(jdbc, model, PgVectorIndex.EXACT_MAX);
        }
    }

    record Unavailable(String reason) implements Setup {
    }

    /** Iterative index scans arrived in 0.8.0; without them a filtered HNSW search can come back short. */
    static final String MIN_VERSION = "0.8.0";

    private PgVectorSetup() {
    }

    /**
     * The index, when the migrations made it (V046, V047: the extension, the column, the HNSW index), or why not.
     * Reads the catalogue only: no DDL runs at start.
     */
    static Setup setUp(Jdbc jdbc, int dimension) {
        PgVectorStore store = new PgVectorStore(jdbc);
        try {
            Optional<PgVectorStore.Extension> available = store.extension();
            if (available.isEmpty()) {
                return new Unavailable("the vector extension is not installed on the database server");
            }
            String version = Optional.ofNullable(available.get().installedVersion())
                    .orElse(available.get().defaultVersion());
            if (compareVersions(version, MIN_VERSION) < 0) {
                return new Unavailable("pgvector " + version + " is older than " + MIN_VERSION
                        + " (iterative index scans)");
            }
            if (available.get().installedVersion() == null) {
                return new Unavailable(LATE + " (the extension is not created in this database)");
            }
            Optional<String> type = store.embeddingType();
            if (type.isEmpty()) {
                return new Unavailable(LATE + " (retrieval_chunks has no embedding_v column)");
            }
            if (!type.get().equals("vector(" + dimension + ")")) {
                return new Unavailable("retrieval_chunks.embedding_v is " + type.get() + " but the model gives "
                        + dimension + " dimensions");
            }
            if (!store.hnswValid()) {
                return new Unavailable("the HNSW index retrieval_chunks_hnsw is missing or invalid (migration V047 "
                        + "builds it)");
            }
            return new Ready(jdbc, version);
        } catch (Jdbc.DataAccessException e) {
            return new Unavailable(e.getMessage());
        }
    }

    /** pgvector came to the server after migration V046 ran (docs/guide/replicas.md says what to run). */
    private static final String LATE = "pgvector is on the server but arrived after migration V046 ran; "
            + "docs/guide/replicas.md#pgvector gives the statements that set it up";

    /** Compares dotted numeric versions ("0.8.0" < "0.10.1"). */
    static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int d = Integer.compare(i < x.length ? leadingNumber(x[i]) : 0, i < y.length ? leadingNumber(y[i]) : 0);
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }

    private static int leadingNumber(String part) {
        String digits = part.replaceAll("^(\\d*).*$", "$1");
        return digits.isEmpty() ? 0 : Integer.parseInt(digits);
    }
}
