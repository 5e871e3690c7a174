package dev.backplane.kernel.retrieval;

import static dev.backplane.kernel.retrieval.ClusteredVectors.ids;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.PgliteServer;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pgvector path against a real pgvector: PGlite with the extension, served on a loopback socket
 * ({@link PgliteServer}), the whole kernel on it by URL. The same kb and memory searches run on a
 * second kernel on plain PostgreSQL (embedded, no extension: the JVM scan) and must agree; the HNSW
 * walk itself is compared with the exact scan on a few thousand chunks.
 */
class PgVectorIT {

    private static PgliteServer pglite;
    private static TestIssuer issuer;
    private static TestKernel onPgvector;
    private static TestKernel onPlain;

    /** slug → body, metadata kind. */
    private static final Map<String, String[]> KB = new LinkedHashMap<>();
    /** query → the slug it must find first, on both paths. */
    private static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        KB.put("k8s-crashloop", new String[] {"A pod in CrashLoopBackOff: read the previous container's logs, then "
                + "describe the pod for OOMKilled.", "known-issue"});
        KB.put("dns-ttl", new String[] {"Lower the DNS record TTL to 60 seconds a day before migrating a zone.", "runbook"});
        KB.put("pg-failover", new String[] {"To fail over PostgreSQL promote the replica with pg_ctl promote, then "
                + "repoint the service.", "runbook"});
        KB.put("cert-renewal", new String[] {"Renew the ingress TLS certificate with cert-manager before it expires.",
                "runbook"});
        KB.put("disk-full", new String[] {"When a node's disk fills up, prune old container images with crictl and "
                + "rotate the logs.", "runbook"});
        KB.put("coffee", new String[] {"The office coffee machine is descaled every Friday.", "office"});
        KB.put("kafka-lag", new String[] {"Consumer lag growing on a Kafka topic: add partitions or scale out the "
                + "consumer group.", "known-issue"});
        KB.put("redis-evictions", new String[] {"Redis evicting keys: raise maxmemory or set the eviction policy to "
                + "allkeys-lru.", "known-issue"});
        KB.put("vault-unseal", new String[] {"After a restart Vault comes up sealed; unseal it with three of the five "
                + "key shares.", "runbook"});
        KB.put("oncall", new String[] {"The on-call rotation changes every Monday at 09:00; swap shifts in the paging "
                + "tool.", "office"});
        KB.put("backup-restore", new String[] {"Nightly database backups land in the object store; restore one with "
                + "pg_restore into a fresh instance.", "runbook"});
        KB.put("rate-limit", new String[] {"HTTP 429 from the payments API means we exceeded its rate limit; back off "
                + "exponentially.", "known-issue"});
        QUERIES.put("container keeps restarting", "k8s-crashloop");
        QUERIES.put("database server died, make the replica the new primary", "pg-failover");
        QUERIES.put("tls certificate about to expire", "cert-renewal");
        QUERIES.put("messages pile up and consumers fall behind", "kafka-lag");
        QUERIES.put("node ran out of storage space", "disk-full");
        QUERIES.put("unlock the secrets server after it rebooted", "vault-unseal");
        QUERIES.put("too many requests from the payment provider", "rate-limit");
        QUERIES.put("who is on call this week", "oncall");
    }

    @BeforeAll
    static void start() throws Exception {
        Optional<String> missing = PgliteServer.unavailable();
        Assumptions.assumeTrue(missing.isEmpty(), () -> "pgvector path not tested: " + missing.orElse("")
                + " (PGlite with pgvector runs on node; install node and npm)");
        Path work = TempDirs.create("svc-pgvector-it");
        pglite = PgliteServer.start(work);
        issuer = new TestIssuer();
        Map<String, String> env = TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins")));
        onPlain = TestKernel.start(work.resolve("plain"), env);
        env.put("SVC_DB_URL", pglite.jdbcUrl());
        env.put("SVC_DB_USER", "postgres");
        env.put("SVC_DB_POOL_SIZE", "4");
        env.put("SVC_CREDENTIALS_FILE_SINGLE_REPLICA", "true");
        onPgvector = TestKernel.start(work.resolve("pgvector"), env);
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {onPgvector, onPlain, issuer, pglite}) {
            if (c != null) {
                c.close();
            }
        }
    }

    private static Jdbc jdbc(TestKernel k) {
        return new Jdbc(k.kernel().database().dataSource());
    }

    @Test
    void theKernelUsesPgvectorWhereTheExtensionIsAndTheJvmScanElsewhere() {
        assertThat(onPgvector.get("/api/v1/info", null).json().path("vector_index").asText()).isEqualTo("pgvector-hnsw");
        assertThat(onPlain.get("/api/v1/info", null).json().path("vector_index").asText()).isEqualTo("jvm-hnsw");
        Jdbc pg = jdbc(onPgvector);
        assertThat(pg.query("SELECT extversion FROM pg_extension WHERE extname = 'vector'", rs -> rs.getString(1)))
                .singleElement().satisfies(v -> assertThat(PgVectorSetup.compareVersions(v, "0.8.0")).isNotNegative());
        assertThat(pg.query("SELECT indexdef FROM pg_indexes WHERE indexname = 'retrieval_chunks_hnsw'", rs -> rs.getString(1)))
                .singleElement().asString().contains("USING hnsw (embedding_v vector_cosine_ops)");
        assertThat(jdbc(onPlain).query("SELECT count(*) FROM pg_attribute WHERE attrelid = 'retrieval_chunks'::regclass "
                + "AND attname = 'embedding_v'", rs -> rs.getInt(1))).as("plain PostgreSQL: no vector column").containsExactly(0);
    }

    @Test
    void theColumnAndTheIndexComeFromTheMigrations() {
        Jdbc pg = jdbc(onPgvector);
        assertThat(pg.query("SELECT version || ':' || type FROM flyway_schema_history WHERE version IN ('046', '047') "
                + "AND success ORDER BY installed_rank", rs -> rs.getString(1))).containsExactly("046:SQL", "047:JDBC");
        assertThat(pg.queryOne("SELECT attgenerated::text FROM pg_attribute WHERE attrelid = 'retrieval_chunks'::regclass "
                + "AND attname = 'embedding_v'", rs -> rs.getString(1))).as("a plain column a trigger fills").hasValue("");
        assertThat(pg.queryOne("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('retrieval_chunks_hnsw')",
                rs -> rs.getBoolean(1))).hasValue(true);
        assertThat(jdbc(onPlain).query("SELECT version FROM flyway_schema_history WHERE version IN ('046', '047') "
                + "AND success ORDER BY installed_rank", rs -> rs.getString(1))).as("without pgvector both pass, doing nothing")
                .containsExactly("046", "047");
    }

    /**
     * V046 and V047 on a table that already holds chunks: the rows are filled in batches and the index is built
     * concurrently; then, on a database whose kernel made the generated column and the index at start (before
     * the migrations existed), both migrate cleanly and keep what is there.
     */
    /** V050's, V051's and V059's audit tables and partitioning undone: audit_rows as V005 and V021 left it. */
    private static void undoV050(Jdbc db) {
        db.update("DROP TABLE audit_principals, audit_target_principals, audit_links");
        db.update("DROP FUNCTION audit_ensure_month(text, text, timestamptz, timestamptz)");
        db.update("DROP TABLE audit_rows, audit_chain_heads, audit_chain_watermark, audit_seals, audit_retention, "
                + "audit_archives, audit_stream_cursors");
        db.update("DROP SEQUENCE audit_chain_pos_seq");
        db.update("DROP FUNCTION audit_ensure_partition(timestamptz)");
        db.update("""
                CREATE TABLE audit_rows (id uuid PRIMARY KEY, tenant_id uuid NOT NULL, occurred_at timestamptz NOT NULL
                    DEFAULT now(), principal text NOT NULL, principal_kind text NOT NULL, op_class text NOT NULL,
                    op_id text NOT NULL, connector_id text, target text, target_id uuid, result_status text NOT NULL CHECK
                    (result_status IN ('started', 'ok', 'error', 'denied', 'awaiting_approval')), error_code text,
                    duration_ms integer, session_id uuid, parent_audit_id uuid, work_ref text, params_hash text,
                    approval_request_id uuid, extras jsonb NOT NULL DEFAULT '{}'::jsonb)""");
        db.update("CREATE INDEX audit_rows_tenant_time ON audit_rows (tenant_id, occurred_at DESC)");
        db.update("CREATE INDEX audit_rows_started ON audit_rows (occurred_at) WHERE result_status = 'started'");
    }

    @Test
    void aDatabaseWithChunksOrWithTheOldStartTimeSetUpMigratesCleanly() throws Exception {
        Path work = TempDirs.create("svc-pgvector-upgrade");
        try (PgliteServer other = PgliteServer.start(work)) {
            var toV045 = org.flywaydb.core.Flyway.configure().dataSource(other.jdbcUrl(), "postgres", "")
                    .locations("classpath:db/migration").target("045");
            // as Database does: a transactional lock deadlocks PGlite's one shared session
            toV045.getConfigurationExtension(org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension.class)
                    .setTransactionalLock(false);
            toV045.load().migrate();
            var settings = new dev.backplane.kernel.persistence.Database.Settings(Optional.of(other.jdbcUrl()), "postgres",
                    "", 2, java.time.Duration.ofSeconds(30), work, 0, false, true);
            try (var ds = new com.zaxxer.hikari.HikariDataSource()) {
                ds.setJdbcUrl(other.jdbcUrl());
                ds.setUsername("postgres");
                ds.setMaximumPoolSize(1);
                Jdbc db = new Jdbc(ds);
                int rows = 6_000;
                db.update("INSERT INTO retrieval_chunks (surface, entry_id, tenant_id, chunk, embedding) "
                        + "SELECT 'kb', gen_random_uuid(), gen_random_uuid(), 0, "
                        + "array[(g % 97)::real, (g % 89)::real] || array_fill(0.5::real, ARRAY[382]) "
                        + "FROM generate_series(1, ?) g", rows);
                var migrated = dev.backplane.kernel.persistence.Database.migrateOnly(settings);
                assertThat(migrated.from()).isEqualTo("045");
                assertThat(db.queryOne("SELECT count(*) FROM retrieval_chunks WHERE embedding_v IS NULL", rs -> rs.getInt(1)))
                        .as("every existing row filled (%d rows, batches of 5,000)", rows).hasValue(0);
                assertThat(db.queryOne("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('retrieval_chunks_hnsw')",
                        rs -> rs.getBoolean(1))).hasValue(true);
                db.update("INSERT INTO retrieval_chunks (surface, entry_id, tenant_id, model, chunk, embedding) "
                        + "VALUES ('kb', gen_random_uuid(), gen_random_uuid(), 'all-minilm-l6-v2-q', 0, "
                        + "array_fill(0.25::real, ARRAY[384]))");
                assertThat(db.queryOne("SELECT count(*) FROM retrieval_chunks WHERE embedding_v IS NULL", rs -> rs.getInt(1)))
                        .as("the trigger fills a new row").hasValue(0);

                // back to V045 with what the kernel used to create at start (a generated column, the index in place)
                db.update("DROP INDEX retrieval_chunks_hnsw");
                db.update("DROP TRIGGER retrieval_chunks_embedding_v ON retrieval_chunks");
                db.update("DROP FUNCTION retrieval_chunks_embedding_v()");
                db.update("ALTER TABLE retrieval_chunks DROP COLUMN embedding_v");
                db.update("ALTER TABLE agent_runs DROP COLUMN resume_state"); // V048's
                db.update("DROP TABLE event_rate_buckets"); // V049's, to take the database back to V045 whole
                db.update("DROP TABLE notification_settings, notification_outbox"); // V055's
                db.update("DROP INDEX scheduler_trigger_fires_event"); // V056's
                db.update("DROP INDEX governance_approvals_due"); // V058's
                db.update("ALTER TABLE tenancy_tenants DROP COLUMN display_name, DROP COLUMN display_name_updated_at, "
                        + "DROP COLUMN display_name_updated_by"); // V057's
                undoV050(db);
                db.update("ALTER TABLE catalog_operation_overrides DROP COLUMN op_class"); // V052's
                db.update("ALTER TABLE event_deliveries DROP CONSTRAINT event_deliveries_pkey, " // V060's
                        + "ADD PRIMARY KEY (subscriber, event_id)");
                db.update("CREATE INDEX event_deliveries_event ON event_deliveries (event_id)");
                db.update("CREATE INDEX event_deliveries_due ON event_deliveries (next_attempt_at, created_at) "
                        + "WHERE status = 'pending'");
                db.update("DROP INDEX event_deliveries_pending"); // V054's
                db.update("DROP TABLE retrieval_model"); // V053's, and the chunks' key and index as V045 had them
                db.update("ALTER TABLE retrieval_chunks DROP CONSTRAINT retrieval_chunks_pkey");
                db.update("DROP INDEX retrieval_chunks_partition_model");
                db.update("ALTER TABLE retrieval_chunks DROP COLUMN model");
                db.update("ALTER TABLE retrieval_chunks ADD PRIMARY KEY (surface, entry_id, chunk)");
                db.update("CREATE INDEX retrieval_chunks_tenant ON retrieval_chunks (tenant_id, surface)");
                db.update("DELETE FROM flyway_schema_history WHERE version::int > 45");
                db.update("ALTER TABLE retrieval_chunks ADD COLUMN embedding_v vector(384) GENERATED ALWAYS AS "
                        + "(embedding::vector(384)) STORED");
                db.update("CREATE INDEX retrieval_chunks_hnsw ON retrieval_chunks USING hnsw (embedding_v vector_cosine_ops)");
                int oid = db.queryOne("SELECT to_regclass('retrieval_chunks_hnsw')::oid::int", rs -> rs.getInt(1)).orElseThrow();
                migrated = dev.backplane.kernel.persistence.Database.migrateOnly(settings);
                assertThat(migrated.from()).isEqualTo("045");
                assertThat(db.queryOne("SELECT attgenerated::text FROM pg_attribute WHERE attrelid = "
                        + "'retrieval_chunks'::regclass AND attname = 'embedding_v'", rs -> rs.getString(1)))
                        .as("the generated column stays").hasValue("s");
                assertThat(db.queryOne("SELECT to_regclass('retrieval_chunks_hnsw')::oid::int", rs -> rs.getInt(1)))
                        .as("the index stays as it was").hasValue(oid);
                assertThat(db.queryOne("SELECT count(*) FROM pg_trigger WHERE tgname = 'retrieval_chunks_embedding_v'",
                        rs -> rs.getInt(1))).hasValue(0);
            }
        }
    }

    @Test
    void kbSearchFindsTheSameEntriesOnBothPaths() {
        UUID tenant = UUID.randomUUID();
        String admin = issuer.token("admin-" + tenant, tenant, "tenant_admin");
        for (TestKernel k : List.of(onPgvector, onPlain)) {
            KB.forEach((slug, e) -> assertThat(k.send("POST", "/api/v1/kb", admin, "{\"slug\": \"" + slug + "\", \"body\": \""
                    + e[0] + "\", \"metadata\": {\"kind\": \"" + e[1] + "\"}}", Map.of()).status()).isEqualTo(201));
        }
        assertThat(jdbc(onPgvector).query("SELECT count(*) FROM retrieval_chunks WHERE tenant_id = ? AND embedding_v IS NOT NULL",
                rs -> rs.getInt(1), tenant)).as("the vector column is generated from the real[] record").containsExactly(KB.size());
        QUERIES.forEach((query, expected) -> {
            List<String> viaPgvector = kbSearch(onPgvector, admin, query, null);
            List<String> viaJvm = kbSearch(onPlain, admin, query, null);
            assertThat(viaPgvector).as(query).first().isEqualTo(expected);
            assertThat(viaPgvector).as(query + ": same ranking on both paths").isEqualTo(viaJvm);
        });
        assertThat(kbSearch(onPgvector, admin, "container keeps restarting", "runbook"))
                .as("a metadata filter narrows the dense side too").isEqualTo(kbSearch(onPlain, admin, "container keeps restarting",
                        "runbook")).doesNotContain("k8s-crashloop").contains("disk-full");
        String stranger = issuer.token("admin", UUID.randomUUID(), "tenant_admin");
        assertThat(kbSearch(onPgvector, stranger, "pod restarting", null)).as("tenants do not see each other's kb").isEmpty();
    }

    @Test
    void memorySearchFindsTheSameEntriesOnBothPaths() {
        UUID tenant = UUID.randomUUID();
        String admin = issuer.token("admin-" + tenant, tenant, "tenant_admin");
        String alice = issuer.token("alice-" + tenant, tenant, "operator");
        String bob = issuer.token("bob-" + tenant, tenant, "operator");
        for (TestKernel k : List.of(onPgvector, onPlain)) {
            for (String[] w : new String[][] {
                {admin, "tenant", "freeze", "Change freeze every Friday after 15:00"},
                {alice, "user-tenant", "yaml-pref", "I prefer kubectl output as yaml"},
                {alice, "user", "handle", "my on-call handle is @alice"},
                {bob, "user-tenant", "bob-editor", "bob edits manifests with vim"},
                {admin, "tenant", "db-owner", "The data team owns every PostgreSQL cluster"}}) {
                assertThat(k.send("POST", "/api/v1/memory", w[0], "{\"body\": \"" + w[3] + "\", \"scope\": \"" + w[1]
                        + "\", \"slug\": \"" + w[2] + "\"}", Map.of()).status()).isEqualTo(201);
            }
        }
        for (String[] q : new String[][] {{bob, "deploy on friday afternoon", "freeze"},
            {alice, "how should kubectl print things", "yaml-pref"}, {bob, "which text editor", "bob-editor"},
            {alice, "who runs the databases", "db-owner"}}) {
            List<String> viaPgvector = recall(onPgvector, q[0], q[1]);
            assertThat(viaPgvector).as(q[1]).first().isEqualTo(q[2]);
            assertThat(viaPgvector).as(q[1] + ": same ranking on both paths").isEqualTo(recall(onPlain, q[0], q[1]));
        }
        assertThat(recall(onPgvector, bob, "kubectl output format")).as("alice's user-tenant memory is hers")
                .doesNotContain("yaml-pref", "handle");
    }

    @Test
    void theKbServiceOnTheHnswWalkAgreesWithTheJvmScan() {
        UUID tenant = UUID.randomUUID();
        Jdbc pg = jdbc(onPgvector);
        Embedder embedder = new Embedder();
        // exactMax 0: every search walks the HNSW graph, however small the partition
        KbService hnsw = new KbService(pg, new RetrievalEngine(pg, ChangeFeed.disabled(), embedder, new PgVectorIndex(pg, 0)));
        KbService jvm = new KbService(pg, new RetrievalEngine(pg, ChangeFeed.disabled(), embedder,
                new JvmVectorIndex(pg, ChangeFeed.disabled())));
        KB.forEach((slug, e) -> hnsw.add(tenant, slug, e[0], Map.of("kind", e[1]), "it"));
        QUERIES.forEach((query, expected) -> {
            List<String> walked = hnsw.search(tenant, query, 5, Map.of(), RetrievalEngine.Mode.DENSE).stream()
                    .map(KbService.Hit::slug).toList();
            assertThat(walked).as(query).first().isEqualTo(expected);
            assertThat(walked).as(query).isEqualTo(jvm.search(tenant, query, 5, Map.of(), RetrievalEngine.Mode.DENSE)
                    .stream().map(KbService.Hit::slug).toList());
        });
        assertThat(hnsw.search(tenant, "container keeps restarting", 5, Map.of("kind", "office"), RetrievalEngine.Mode.DENSE)
                .stream().map(KbService.Hit::slug).toList()).containsExactlyInAnyOrder("coffee", "oncall");
    }

    @Test
    void theHnswWalkMatchesTheExactScanOnThousandsOfChunks() {
        Jdbc pg = jdbc(onPgvector);
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        ClusteredVectors random = new ClusteredVectors();
        long t0 = System.nanoTime();
        Map<UUID, float[]> entriesOfA = seed(pg, a, random.next(2_000));
        seed(pg, b, random.next(1_000));
        pg.update("ANALYZE retrieval_chunks"); // PGlite runs no autovacuum; without statistics the planner guesses
        System.out.printf("PGlite: 3,000 chunks inserted through the HNSW index in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        PgVectorIndex walk = new PgVectorIndex(pg, 0);
        JvmVectorIndex scan = new JvmVectorIndex(pg, ChangeFeed.disabled());
        assertThat(explain(pg, a)).as("the planner walks the HNSW index").contains("retrieval_chunks_hnsw");

        List<UUID> ids = new ArrayList<>(entriesOfA.keySet());
        Set<UUID> half = new HashSet<>(ids.subList(0, ids.size() / 2));
        Set<UUID> few = new HashSet<>(ids.subList(0, 20));
        double recall = 0;
        int searches = 0;
        for (int i = 0; i < 20; i++) {
            UUID self = ids.get(random.nextInt(half.size()));
            float[] q = entriesOfA.get(self);
            for (var search : List.<Object[]>of(new Object[] {List.of(a), Candidates.all()},
                    new Object[] {List.of(a, b), Candidates.all()}, new Object[] {List.of(a), Candidates.only(half)})) {
                @SuppressWarnings("unchecked")
                List<UUID> parts = (List<UUID>) search[0];
                Candidates candidates = (Candidates) search[1];
                List<UUID> walked = ids(walk.nearest(parts, "it", q, 10, candidates));
                List<UUID> exact = ids(scan.nearest(parts, "it", q, 10, candidates));
                assertThat(walked).as("an entry is its own nearest neighbour").first().isEqualTo(self);
                assertThat(walked).hasSize(10).allMatch(candidates::allows);
                recall += walked.stream().filter(exact::contains).count() / 10.0;
                searches++;
            }
            assertThat(ids(walk.nearest(List.of(a), "it", q, 10, Candidates.only(few))))
                    .as("a candidate set of 20 in 2,000: the walk widens until it has them")
                    .isEqualTo(ids(scan.nearest(List.of(a), "it", q, 10, Candidates.only(few))));
        }
        System.out.printf("HNSW recall@10 against the exact scan: %.3f over %d searches%n", recall / searches, searches);
        assertThat(recall / searches).isGreaterThan(0.9);
    }

    private static Map<UUID, float[]> seed(Jdbc jdbc, UUID tenant, Map<UUID, float[]> vectors) {
        List<Map.Entry<UUID, float[]>> rows = new ArrayList<>(vectors.entrySet());
        // short transactions: PGlite's socket server serves one transaction at a time, and a client
        // connection kept waiting for a minute (the kernel's scheduler polls) is dropped
        for (int from = 0; from < rows.size(); from += 250) {
            insert(jdbc, tenant, rows.subList(from, Math.min(rows.size(), from + 250)));
        }
        return vectors;
    }

    private static void insert(Jdbc jdbc, UUID tenant, List<Map.Entry<UUID, float[]>> rows) {
        jdbc.inTransaction(c -> {
            try (var ps = c.prepareStatement("INSERT INTO retrieval_chunks (surface, entry_id, tenant_id, model, chunk, "
                    + "embedding) VALUES ('it', ?, ?, '" + EmbeddingModels.DEFAULT.name() + "', 0, ?)")) {
                for (Map.Entry<UUID, float[]> e : rows) {
                    Float[] boxed = new Float[e.getValue().length];
                    for (int d = 0; d < boxed.length; d++) {
                        boxed[d] = e.getValue()[d];
                    }
                    ps.setObject(1, e.getKey());
                    ps.setObject(2, tenant);
                    ps.setArray(3, c.createArrayOf("float4", boxed));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    private static String explain(Jdbc jdbc, UUID tenant) {
        List<String> plan = jdbc.inTransaction(c -> {
            Jdbc.query(c, "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)", rs -> null);
            return Jdbc.query(c, "EXPLAIN SELECT entry_id FROM retrieval_chunks WHERE tenant_id = ANY (?) AND surface = 'it' "
                    + "ORDER BY embedding_v <=> (SELECT embedding_v FROM retrieval_chunks WHERE tenant_id = ? LIMIT 1) LIMIT 20",
                    rs -> rs.getString(1), (Object) new UUID[] {tenant}, tenant);
        });
        return String.join("\n", plan);
    }

    private static List<String> kbSearch(TestKernel k, String token, String query, String kind) {
        var r = k.send("POST", "/api/v1/kb/search", token, "{\"query\": \"" + query + "\", \"limit\": 5"
                + (kind == null ? "" : ", \"filters\": {\"kind\": \"" + kind + "\"}") + "}", Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().path("hits").findValuesAsText("slug");
    }

    private static List<String> recall(TestKernel k, String token, String query) {
        JsonNode r = k.get("/api/v1/retrieve?query=" + java.net.URLEncoder.encode(query, java.nio.charset.StandardCharsets.UTF_8)
                + "&limit=5", token).json();
        return r.path("hits").findValuesAsText("slug");
    }
}
