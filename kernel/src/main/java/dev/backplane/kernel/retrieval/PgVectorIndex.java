package dev.backplane.kernel.retrieval;

import com.pgvector.PGvector;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Nearest neighbours from pgvector's HNSW index over {@code retrieval_chunks.embedding_v}, a
 * {@code vector(384)} column PostgreSQL generates from the {@code real[]} record.
 *
 * <p>The extension, the column and the index come from the migrations V046 and V047, which do nothing
 * on a server without pgvector (then the JVM index serves) and build the index concurrently, so a
 * replica never runs DDL at start ({@code db.migrate-on-start=false} deploys give it no right to).
 * {@link #setUp} only reads the catalogue.
 *
 * <p>A search filters by partition and surface (and by the caller's candidates), which an HNSW graph
 * over every tenant's chunks does not know about: pgvector's iterative scan (0.8.0+) keeps walking
 * the graph until the LIMIT is met. Small partitions and small candidate sets skip the graph and are
 * scanned exactly in PostgreSQL, where an approximate walk would mostly visit other tenants' chunks.
 */
final class PgVectorIndex implements VectorIndex {

    /** The outcome of {@link #setUp}. */
    sealed interface Setup permits Ready, Unavailable {
    }

    record Ready(PgVectorIndex index, String version) implements Setup {
    }

    record Unavailable(String reason) implements Setup {
    }

    /** Iterative index scans arrived in 0.8.0; without them a filtered HNSW search can come back short. */
    static final String MIN_VERSION = "0.8.0";
    /** Partitions or candidate sets up to this many chunks (entries) are scanned exactly. */
    static final int EXACT_MAX = 5_000;
    /** How many chunk rows an HNSW walk may ask for before the exact scan answers instead. */
    private static final int WALK_MAX = 20_000;
    /** pgvector's upper bound of hnsw.ef_search. */
    private static final int EF_SEARCH_MAX = 1_000;

    private final Jdbc jdbc;
    private final int exactMax;

    /** An index over a database {@link #setUp} has prepared; {@code exactMax} 0 always walks the graph (tests). */
    PgVectorIndex(Jdbc jdbc, int exactMax) {
        this.jdbc = jdbc;
        this.exactMax = exactMax;
    }

    /**
     * The index, when the migrations made it (V046, V047: the extension, the column, the HNSW index), or why not.
     * Reads the catalogue only: no DDL runs at start.
     */
    static Setup setUp(Jdbc jdbc, int dimension) {
        try {
            Optional<String[]> available = jdbc.query("SELECT default_version, installed_version "
                    + "FROM pg_available_extensions WHERE name = 'vector'", rs -> new String[] {rs.getString(1),
                    rs.getString(2)}).stream().findFirst();
            if (available.isEmpty()) {
                return new Unavailable("the vector extension is not installed on the database server");
            }
            String version = Optional.ofNullable(available.get()[1]).orElse(available.get()[0]);
            if (compareVersions(version, MIN_VERSION) < 0) {
                return new Unavailable("pgvector " + version + " is older than " + MIN_VERSION
                        + " (iterative index scans)");
            }
            if (available.get()[1] == null) {
                return new Unavailable(LATE + " (the extension is not created in this database)");
            }
            Optional<String> type = jdbc.queryOne("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                    + "WHERE attrelid = 'retrieval_chunks'::regclass AND attname = 'embedding_v' AND NOT attisdropped",
                    rs -> rs.getString(1));
            if (type.isEmpty()) {
                return new Unavailable(LATE + " (retrieval_chunks has no embedding_v column)");
            }
            if (!type.get().equals("vector(" + dimension + ")")) {
                return new Unavailable("retrieval_chunks.embedding_v is " + type.get() + " but the model gives "
                        + dimension + " dimensions");
            }
            if (!jdbc.queryOne("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('retrieval_chunks_hnsw')",
                    rs -> rs.getBoolean(1)).orElse(false)) {
                return new Unavailable("the HNSW index retrieval_chunks_hnsw is missing or invalid (migration V047 "
                        + "builds it)");
            }
            return new Ready(new PgVectorIndex(jdbc, EXACT_MAX), version);
        } catch (Jdbc.DataAccessException e) {
            return new Unavailable(e.getMessage());
        }
    }

    /** pgvector came to the server after migration V046 ran (docs/guide/replicas.md says what to run). */
    private static final String LATE = "pgvector is on the server but arrived after migration V046 ran; "
            + "docs/guide/replicas.md#pgvector gives the statements that set it up";

    @Override
    public String kind() {
        return "pgvector-hnsw";
    }

    @Override
    public List<Scored> nearest(List<UUID> partitions, String surface, float[] query, int k, Candidates candidates) {
        UUID[] parts = partitions.toArray(UUID[]::new);
        PGvector q = new PGvector(query);
        return jdbc.inTransaction(c -> {
            if (candidates instanceof Candidates.Only only && only.ids().size() <= exactMax) {
                return exact(c, parts, surface, q, k, Optional.of(only.ids().toArray(UUID[]::new)), Candidates.all());
            }
            if (exactMax > 0 && chunksUpTo(c, parts, surface, exactMax + 1) <= exactMax) {
                return exact(c, parts, surface, q, k, Optional.empty(), candidates);
            }
            return approximate(c, parts, surface, q, k, candidates);
        });
    }

    /**
     * The HNSW walk: asks for twice as many chunks as entries wanted, and four times more while the
     * candidates filter leaves too few. A walk that comes back short of its LIMIT either saw the whole
     * partition (then its answer is complete) or was cut off by hnsw.max_scan_tuples, on a partition
     * that is a sliver of the table; then, as when the filter keeps too little, the exact scan answers.
     */
    private static List<Scored> approximate(Connection c, UUID[] parts, String surface, PGvector q, int k,
                                            Candidates candidates) throws SQLException {
        for (int limit = 2 * k; limit <= WALK_MAX; limit *= 4) {
            Jdbc.query(c, "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                    + "set_config('hnsw.ef_search', ?, true)", rs -> null,
                    String.valueOf(Math.min(EF_SEARCH_MAX, Math.max(40, limit))));
            List<Scored> rows = Jdbc.query(c, """
                    SELECT entry_id, embedding_v <=> ? AS distance FROM retrieval_chunks
                     WHERE tenant_id = ANY (?) AND surface = ?
                     ORDER BY embedding_v <=> ? LIMIT ?""", PgVectorIndex::scored, q, parts, surface, q, limit);
            List<Scored> best = bestPerEntry(rows, candidates, Integer.MAX_VALUE);
            if (best.size() >= k) {
                return withFirstChunks(c, surface, q, best, k);
            }
            if (rows.size() < limit) {
                if (chunksUpTo(c, parts, surface, rows.size() + 1) <= rows.size()) {
                    return withFirstChunks(c, surface, q, best, k);
                }
                break;
            }
        }
        Optional<UUID[]> only = candidates instanceof Candidates.Only o ? Optional.of(o.ids().toArray(UUID[]::new))
                : Optional.empty();
        return exact(c, parts, surface, q, k, only, only.isPresent() ? Candidates.all() : candidates);
    }

    /**
     * Every chunk of the partitions (of {@code ids}, when given) by exact distance; grouping by entry
     * keeps the planner off the HNSW index. {@code inJvm} filters what the SQL could not.
     */
    private static List<Scored> exact(Connection c, UUID[] parts, String surface, PGvector q, int k,
                                      Optional<UUID[]> ids, Candidates inJvm) throws SQLException {
        boolean filtered = !(inJvm instanceof Candidates.All);
        // an entry's distance as JvmVectorIndex.entryScore has it: the mean of its first and its best chunk's
        List<Scored> rows = Jdbc.query(c, """
                SELECT entry_id, (min(d) + coalesce(min(d) FILTER (WHERE chunk = 0), min(d))) / 2 AS distance
                  FROM (SELECT entry_id, chunk, embedding_v <=> ? AS d FROM retrieval_chunks
                         WHERE tenant_id = ANY (?) AND surface = ? AND (CAST(? AS uuid[]) IS NULL OR entry_id = ANY (?))) x
                 GROUP BY entry_id ORDER BY distance, entry_id LIMIT ?""", PgVectorIndex::scored, q, parts, surface,
                ids.orElse(null), ids.orElse(null), filtered ? Integer.MAX_VALUE : k);
        return bestPerEntry(rows, inJvm, k);
    }

    /**
     * The walk's entries scored as {@link JvmVectorIndex#entryScore} scores them (the mean of the first chunk's
     * similarity and the best found), their first chunks read by primary key; the best {@code k}.
     */
    private static List<Scored> withFirstChunks(Connection c, String surface, PGvector q, List<Scored> best, int k)
            throws SQLException {
        Map<UUID, Double> first = new java.util.HashMap<>();
        Jdbc.query(c, "SELECT entry_id, 1 - (embedding_v <=> ?) FROM retrieval_chunks WHERE surface = ? AND chunk = 0 "
                + "AND entry_id = ANY (?)", rs -> first.put(rs.getObject(1, UUID.class), rs.getDouble(2)), q, surface,
                best.stream().map(Scored::entryId).toArray(UUID[]::new));
        List<Scored> out = new ArrayList<>();
        for (Scored s : best) {
            out.add(new Scored(s.entryId(), JvmVectorIndex.entryScore(first.getOrDefault(s.entryId(), s.score())
                    .floatValue(), (float) s.score())));
        }
        out.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(s -> s.entryId().toString()));
        return out.size() > k ? out.subList(0, k) : out;
    }

    /** How many chunks the partitions hold, counted no further than {@code bound}. */
    private static int chunksUpTo(Connection c, UUID[] parts, String surface, int bound) throws SQLException {
        return Jdbc.query(c, "SELECT count(*) FROM (SELECT 1 FROM retrieval_chunks WHERE tenant_id = ANY (?) "
                + "AND surface = ? LIMIT ?) x", rs -> rs.getInt(1), parts, surface, bound).getFirst();
    }

    private static Scored scored(java.sql.ResultSet rs) throws SQLException {
        return new Scored(rs.getObject(1, UUID.class), 1 - rs.getDouble(2));
    }

    /** A document scores its best chunk; the best {@code k} allowed documents, best first. */
    private static List<Scored> bestPerEntry(List<Scored> chunks, Candidates candidates, int k) {
        Map<UUID, Scored> best = new LinkedHashMap<>();
        for (Scored s : chunks) {
            if (candidates.allows(s.entryId())) {
                best.merge(s.entryId(), s, (a, b) -> a.score() >= b.score() ? a : b);
            }
        }
        List<Scored> out = new ArrayList<>(best.values());
        out.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(s -> s.entryId().toString()));
        return out.size() > k ? out.subList(0, k) : out;
    }

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
