package dev.backplane.kernel.quality;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code svc retrieval eval / usage / retire-checklist} against a running kernel over real HTTP. */
class RetrievalQualityIT {

    /**
     * Operations of the demo connector: many more than the cut-off of 10, so that a search returning them
     * all in any order scores low (near-duplicates "List every pod number 17", "Show one volume number 17", ...).
     */
    private static final int OPERATIONS = 150;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CountDownLatch VECTORS_READY = new CountDownLatch(1);
    private static final Handler WATCH = new VectorsReady();
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private final UUID tenant = UUID.randomUUID();
    private final String admin = issuer.token("admin-" + tenant, tenant, "tenant_admin");
    private final String operator = issuer.token("op-" + tenant, tenant, "operator");

    /** slug, body (title first), curated queries (paraphrases: few shared words). */
    private static final List<String[]> KB = List.of(
            new String[] {"pg-failover", "# PostgreSQL failover\nPromote the standby with pg_ctl promote, then repoint "
                    + "the service to the new primary.", "the database primary died|switch to the replica database"},
            new String[] {"k8s-crashloop", "# Pod in CrashLoopBackOff\nRead the previous container's logs, then describe "
                    + "the pod and look for OOMKilled.", "container keeps restarting over and over"},
            new String[] {"dns-ttl", "# Lower DNS TTL before a zone migration\nSet the record TTL to 60 seconds a day "
                    + "ahead so clients pick up the new name servers fast.", "prepare to move a domain to another provider"},
            new String[] {"cert-renewal", "# Renew ingress certificates\nRun cert-manager renew for the ingress secret "
                    + "before the certificate expires.", "https cert about to run out"},
            new String[] {"disk-full", "# Node disk pressure\nPrune unused images with crictl rmi --prune and rotate "
                    + "kubelet logs.", "no space left on the server"},
            new String[] {"vault-unseal", "# Unseal Vault after a restart\nThree key holders each enter an unseal key.",
                    "secret store is locked after reboot"},
            new String[] {"coffee", "# Office coffee machine\nDescale the machine every Friday with citric acid.", ""},
            new String[] {"oncall", "# On-call handover\nWrite open incidents into the handover doc before 9:00.", ""},
            new String[] {"backup-restore", "# Restore a database backup\nUse pg_restore with --clean into an empty "
                    + "database, then run ANALYZE.", ""},
            new String[] {"vpn-access", "# VPN access for contractors\nRequest a time-limited VPN profile from IT.", ""},
            new String[] {"log-retention", "# Log retention\nApplication logs are kept 30 days, audit logs one year.", ""},
            new String[] {"release-freeze", "# Release freeze\nNo production deploys on Friday after 15:00.", ""});

    @BeforeAll
    static void start() throws Exception {
        Path work = TempDirs.create("svc-retrieval-it");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("demo", "1.x").operations(OPERATIONS).nouns("pod", "volume", "node"));
        issuer = new TestIssuer();
        Logger.getLogger("").addHandler(WATCH);
        kernel = TestKernel.start(work.resolve("data"), TestKernel.settings(issuer, plugins));
    }

    @AfterAll
    static void stop() {
        Logger.getLogger("").removeHandler(WATCH);
        kernel.close();
        issuer.close();
    }

    private void seedKb() {
        for (String[] e : KB) {
            String meta = e[2].isEmpty() ? "{}" : "{\"eval_queries\": \"" + e[2] + "\"}";
            var r = kernel.send("POST", "/api/v1/kb", admin, "{\"slug\": \"" + e[0] + "\", \"body\": \"" + e[1]
                    .replace("\n", "\\n") + "\", \"metadata\": " + meta + "}", Map.of());
            assertThat(r.status()).as(r.body()).isEqualTo(201);
        }
    }

    private CliRunner cli(String token) throws Exception {
        return new CliRunner(TempDirs.create("svc-cli")).env("SVC_TOKEN", token)
                .env("SVC_BACKPLANE", kernel.url()).env("SVC_INSECURE_ALLOW_HTTP", "1");
    }

    private Jdbc jdbc() {
        return new Jdbc(kernel.kernel().database().dataSource());
    }

    @Test
    void evalMeasuresEachSurfaceAgainstGrepAndSavesAndComparesABaseline() throws Exception {
        seedKb();
        var eval = cli(operator).run("retrieval", "eval", "--surface", "kb", "--json");
        assertThat(eval.exitCode()).as(eval.toString()).isZero();
        JsonNode kb = JSON.readTree(eval.out()).path("surfaces").get(0);
        assertThat(kb.path("engine").asText()).isEqualTo("hybrid");
        assertThat(kb.path("documents").asInt()).isEqualTo(12);
        assertThat(kb.path("curated_queries").asInt()).isEqualTo(7);
        assertThat(kb.path("derived_queries").asInt()).as("titles of the entries without curated queries").isEqualTo(6);
        assertThat(kb.path("engine_metrics").path("ndcg_at_10").asDouble())
                .as("hybrid finds paraphrases grep misses: " + kb).isGreaterThan(kb.path("grep_metrics").path("ndcg_at_10")
                        .asDouble());
        assertThat(kb.path("beats_baseline").asBoolean()).isTrue();

        var none = cli(operator).run("retrieval", "eval", "--surface", "kb", "--compare-baseline");
        assertThat(none.exitCode()).as("nothing saved to compare with").isEqualTo(1);
        assertThat(none.out()).contains("kb vs saved baseline: no_baseline");
        assertThat(cli(operator).run("retrieval", "eval", "--save-baseline").exitCode()).as("saving needs tenant_admin")
                .isEqualTo(3);

        awaitOperationVectors();
        var saved = cli(admin).run("retrieval", "eval", "--save-baseline");
        assertThat(saved.exitCode()).as(saved.toString()).isZero();
        assertThat(saved.out()).contains("SURFACE").contains("operations: queries are derived from operation "
                + "descriptions").contains("kb: saved as the tenant's baseline");
        JsonNode all = JSON.readTree(cli(admin).run("retrieval", "eval", "--json").out());
        JsonNode ops = all.path("surfaces").get(2);
        assertThat(ops.path("surface").asText()).isEqualTo("operations");
        assertThat(ops.path("queries").asInt()).as("one derived query per demo operation").isEqualTo(OPERATIONS);
        System.out.println("RetrievalQualityIT: operations over " + OPERATIONS + " known-item queries: engine "
                + ops.path("engine_metrics") + ", grep " + ops.path("grep_metrics"));
        // floors a few hundredths under what the hybrid engine measures here (MRR and nDCG@10 1.000 since issue 44 I7,
        // 0.9967 and 0.9975 before; grep 0.3525 and 0.3558): the right operation first for (nearly) all 150
        // near-duplicates
        assertThat(ops.path("engine_metrics").path("mrr").asDouble()).as(ops.toString()).isGreaterThanOrEqualTo(0.97);
        assertThat(ops.path("engine_metrics").path("ndcg_at_10").asDouble()).as(ops.toString())
                .isGreaterThanOrEqualTo(0.97);
        assertThat(ops.path("beats_baseline").asBoolean()).as("no worse than grep on any metric: " + ops).isTrue();

        var same = cli(operator).run("retrieval", "eval", "--surface", "kb", "--compare-baseline");
        assertThat(same.exitCode()).as(same.toString()).isZero();
        assertThat(same.out()).contains("kb vs saved baseline: ok");

        jdbc().update("UPDATE retrieval_eval_baselines SET report = jsonb_set(report, '{engine_metrics,mrr}', '1.5') "
                + "WHERE tenant_id = ? AND surface = 'kb'", tenant);
        var worse = cli(operator).run("retrieval", "eval", "--surface", "kb", "--compare-baseline");
        assertThat(worse.exitCode()).as("a metric fell below the saved baseline").isEqualTo(1);
        assertThat(worse.out()).contains("kb vs saved baseline: regressed");
        assertThat(worse.err()).contains("regressed against the saved baseline");

        assertThat(kernel.send("POST", "/api/v1/retrieval/eval", operator, "{\"surface\": \"docs\"}", Map.of()).json()
                .path("error").asText()).isEqualTo("invalid_surface");
        assertThat(kernel.send("POST", "/api/v1/retrieval/eval", operator, "{\"baseline\": \"bm25\"}", Map.of()).json()
                .path("error").asText()).isEqualTo("invalid_baseline");
        assertThat(cli(operator).run("retrieval", "eval", "--surface", "docs").exitCode()).isEqualTo(2);
    }

    @Test
    void usageRecordsSearchesButNotTheirTextAndTheTenantViewNeedsTenantAdmin() throws Exception {
        seedKb();
        String secretish = "password hunter2 for the db";
        search("{\"query\": \"" + secretish + "\"}");
        search("{\"query\": \"zzzz qqqq\"}");
        kernel.get("/api/v1/retrieve?query=freeze", operator);
        kernel.get("/api/v1/connectors/demo-1.x/operations?query=list%20pods", operator);
        String mcp = issuer.mcpToken("op-" + tenant, tenant, "operator");
        var viaMcp = kernel.send("POST", "/mcp", mcp, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"search_knowledge\",\"arguments\":{\"query\":\"certificate expiry\"}}}", Map.of());
        assertThat(viaMcp.status()).isEqualTo(200);

        var mine = cli(operator).run("retrieval", "usage", "--json");
        assertThat(mine.exitCode()).as(mine.toString()).isZero();
        JsonNode r = JSON.readTree(mine.out());
        assertThat(r.path("view").asText()).isEqualTo("mine");
        JsonNode kb = r.path("surfaces").get(0);
        assertThat(kb.path("surface").asText()).isEqualTo("kb");
        assertThat(kb.path("searches").asInt()).isEqualTo(3);
        assertThat(kb.path("mcp_searches").asInt()).isEqualTo(1);
        assertThat(kb.path("active_days").asInt()).isEqualTo(1);
        assertThat(r.path("surfaces").get(1).path("searches").asInt()).as("memory").isEqualTo(1);
        assertThat(r.path("surfaces").get(2).path("searches").asInt()).as("operations").isEqualTo(1);
        assertThat(cli(operator).run("retrieval", "usage", "--surface", "memory").out()).contains("memory")
                .doesNotContain("operations");

        List<String> rows = jdbc().query("SELECT r::text FROM retrieval_searches r WHERE tenant_id = ?",
                rs -> rs.getString(1), tenant);
        assertThat(rows).hasSize(5).noneMatch(row -> row.contains("hunter2"));
        assertThat(jdbc().query("SELECT count(*) FROM retrieval_searches WHERE tenant_id = ? AND query_sha256 = ? AND "
                + "query_chars = ?", rs -> rs.getInt(1), tenant, sha256(secretish), secretish.length())).containsExactly(1);

        assertThat(cli(operator).run("retrieval", "usage", "--tenant", "current").exitCode())
                .as("the tenant view needs tenant_admin").isEqualTo(3);
        String readOnly = issuer.token("ro-" + tenant, tenant, "read_only");
        assertThat(kernel.get("/api/v1/retrieval/usage", readOnly).status()).isEqualTo(403);
        var everyone = cli(admin).run("retrieval", "usage", "--tenant", tenant.toString());
        assertThat(everyone.exitCode()).as(everyone.toString()).isZero();
        assertThat(everyone.out()).contains("tenant " + tenant).contains("op-" + tenant).contains("user-agent");
        assertThat(cli(admin).run("retrieval", "usage", "--since", "yesterday").exitCode()).isEqualTo(1);
        assertThat(kernel.get("/api/v1/retrieval/usage?view=all", admin).status()).isEqualTo(422);
    }

    @Test
    void theRetireChecklistComputesEveryItemWithEvidence() throws Exception {
        seedKb();
        assertThat(cli(admin).run("retrieval", "eval", "--surface", "kb", "--save-baseline").exitCode()).isZero();
        Instant now = Instant.now();
        for (int day = 1; day <= 31; day++) {
            for (String who : List.of("ann", "ben", "cy")) {
                jdbc().update("INSERT INTO retrieval_searches (tenant_id, surface, principal, principal_kind, transport, "
                        + "query_sha256, query_chars, hits, latency_ms, searched_at) VALUES (?, 'kb', ?, 'human', 'rest', "
                        + "'x', 5, 3, 12, ?)", tenant, who, Timestamp.from(now.minus(Duration.ofDays(day))));
            }
        }
        var run = cli(operator).run("retrieval", "retire-checklist", "--json");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode r = JSON.readTree(run.out());
        assertThat(r.path("ready").asBoolean()).isFalse();
        JsonNode kb = r.path("surfaces").get(0);
        assertThat(kb.path("surface").asText()).isEqualTo("kb");
        assertThat(kb.path("failing")).as(kb.toString()).isEmpty();
        assertThat(kb.path("ready").asBoolean()).isTrue();
        assertThat(kb.path("items").findValuesAsText("item")).containsExactly("on_retrieval_engine", "labelled_queries",
                "curated_queries", "beats_grep", "no_regression", "in_use_30_days", "daily_use", "operator_breadth");
        JsonNode memory = r.path("surfaces").get(1);
        assertThat(memory.path("failing").toString()).contains("labelled_queries").contains("no_regression")
                .contains("in_use_30_days");
        JsonNode ops = r.path("surfaces").get(2);
        assertThat(ops.path("items").get(0).path("pass").asBoolean()).as("operation search is on the engine").isTrue();
        assertThat(ops.path("items").get(0).path("evidence").asText()).contains("hybrid retrieval engine");

        var human = cli(operator).run("retrieval", "retire-checklist");
        assertThat(human.out()).contains("kb: READY").contains("operations: NOT READY")
                .contains("[FAIL] curated_queries").contains("[pass] daily_use").contains("overall: NOT READY");
    }

    /**
     * Starts the demo connector's operation search index (if no test did yet) and waits until its vectors are in,
     * so the eval measures the hybrid ranking: while they are prepared, operation search ranks lexically.
     */
    private void awaitOperationVectors() throws InterruptedException {
        var search = kernel.get("/api/v1/connectors/demo-1.x/operations?query=list%20pods", operator);
        assertThat(search.status()).as(search.body()).isEqualTo(200);
        assertThat(VECTORS_READY.await(3, TimeUnit.MINUTES)).as("the demo operations' vectors are ready").isTrue();
    }

    /** Counts down when the kernel logs that the demo connector's operation vectors are ready. */
    private static final class VectorsReady extends Handler {
        @Override
        public void publish(LogRecord r) {
            if (String.valueOf(r.getMessage()).startsWith("retrieval: vectors for operations of demo-1.x ready")) {
                VECTORS_READY.countDown();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    private void search(String body) {
        assertThat(kernel.send("POST", "/api/v1/kb/search", operator, body, Map.of()).status()).isEqualTo(200);
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
