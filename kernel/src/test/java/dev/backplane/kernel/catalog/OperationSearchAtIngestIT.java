package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.catalog.CatalogViews.SearchHit;
import dev.backplane.kernel.retrieval.Embedder;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Issue 44 I6: the ingest job computes the new connector's operation embeddings as its last stage, so the very first
 * search after an ingest is hybrid and finds what words alone miss; a search while a connector's embeddings are not in
 * says it is lexical-only (REST, MCP and the CLI's one-line note), and the lazy path still fills them in.
 */
public class OperationSearchAtIngestIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SPECS = OperationSearchFixture.SPECS;
    private static final Path POWERDNS = SPECS.resolve("powerdns-auth-openapi-3.1.yaml");
    private static final Path KUBERNETES = SPECS.resolve("kubernetes-v1.36-swagger.json");
    /**
     * Worded as an operator asks, sharing no word (nor a synonym of one) with the operation it means ({@code
     * get_stats}: "Query statistics. Query PowerDNS internal statistics."): words alone find nothing at all. ("show
     * performance counters" was this query until the lexical side learnt that counters are statistics.)
     */
    private static final String QUERY = "measure throughput";
    private static final String ANSWER = "get_stats";

    @Test
    void theFirstSearchAfterAnIngestIsHybridAndFindsWhatWordsMiss() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(POWERDNS), "no shared specs at " + SPECS + " (-Dsvc.shared.dir)");
        Path work = TempDirs.create("svc-opsearch-ingest");
        UUID tenant = UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer();
             TestKernel k = TestKernel.start(work.resolve("data"), jobsOnly(TestKernel.settings(issuer,
                     Files.createDirectories(work.resolve("plugins")))))) {
            String admin = issuer.platformAdminToken("admin", tenant);
            // as a background job (polled): the job is not done until the embeddings are in
            JsonNode result = OperationSearchFixture.ingest(k, admin, "pdns", "4.9", POWERDNS, true);
            assertThat(result.path("search_vectors").asText()).as(result.toString()).isEqualTo("ready");
            assertThat(result.path("search_vectors_ms").isIntegralNumber()).isTrue();
            int ops = result.path("operation_count").asInt();
            // stored by content at ingest: another replica or a restart reads them back instead of embedding again
            assertThat(k.jdbc().queryOne("SELECT count(*) FROM retrieval_text_vectors", rs -> rs.getLong(1))
                    .orElseThrow()).isGreaterThanOrEqualTo(ops);

            // the very first search: hybrid, and the answer is found
            JsonNode first = search(k, admin, "pdns-4.9", QUERY);
            assertThat(first.path("retrieval").asText()).as(first.toString()).isEqualTo("hybrid");
            assertThat(first.path("vectors_ready").asBoolean()).isTrue();
            assertThat(opIds(first)).as(first.toString()).first().isEqualTo(ANSWER);

            // which the words alone miss (the same catalog's lexical side, as the retrieval eval measures it)
            try (RetrievalEngine engine = new RetrievalEngine(k.jdbc(), k.kernel().changeFeed(), new Embedder())) {
                List<String> lexical = OperationSearchFixture.catalog(work, k.jdbc(), k, engine).search(tenant,
                        "pdns-4.9", QUERY, Optional.empty(), 10, RetrievalEngine.Mode.LEXICAL).hits().stream().map(SearchHit::opId)
                        .map(id -> id.substring(id.lastIndexOf('.') + 1)).toList();
                assertThat(lexical).as("lexical top 10").doesNotContain(ANSWER);
            }

            // MCP answers the same shape
            JsonNode mcp = mcpSearch(k, issuer.mcpToken("agent", tenant, "read_only"), "pdns-4.9", QUERY);
            assertThat(mcp.path("retrieval").asText()).as(mcp.toString()).isEqualTo("hybrid");

            // the CLI prints no lexical note for a hybrid answer
            CliRunner.Result cli = k.cli(Files.createTempDirectory(work, "cli"), admin)
                    .run("operation", "search", "pdns-4.9", QUERY);
            assertThat(cli.exitCode()).as(cli.toString()).isZero();
            assertThat(cli.out()).contains(ANSWER).doesNotContain("ranked by words only");
        }
    }

    @Test
    void aSearchWhileTheEmbeddingsAreNotInSaysItIsLexicalOnly() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(POWERDNS) && Files.isRegularFile(KUBERNETES),
                "no shared specs at " + SPECS + " (-Dsvc.shared.dir)");
        Path work = TempDirs.create("svc-opsearch-deferred");
        UUID tenant = UUID.randomUUID();
        Map<String, String> settings;
        try (TestIssuer issuer = new TestIssuer()) {
            settings = TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins")));
            settings.put("SVC_INGEST_EMBEDDINGS", "false"); // the first search starts them (as after a restart)
            settings.put("SVC_SEARCH_FIRST_WAIT_MS", "0"); // and does not wait for them: lexical, whatever the load
            try (TestKernel k = TestKernel.start(work.resolve("data"), settings)) {
                String admin = issuer.platformAdminToken("admin", tenant);
                assertThat(OperationSearchFixture.ingest(k, admin, "k8s", "1.36", KUBERNETES, true)
                        .path("search_vectors").asText()).isEqualTo("deferred");
                assertThat(OperationSearchFixture.ingest(k, admin, "pdns", "4.9", POWERDNS, true)
                        .path("search_vectors").asText()).isEqualTo("deferred");
                assertThat(k.jdbc().queryOne("SELECT count(*) FROM retrieval_text_vectors", rs -> rs.getLong(1))
                        .orElseThrow()).isZero();

                // Kubernetes' 1,123 operations take seconds to embed on the one embedding thread: its first search
                // starts them and (catalog.search-first-wait-ms 0) answers by words alone at once, and says so
                JsonNode k8s = search(k, admin, "k8s-1.36", "show the logs of a container");
                assertThat(k8s.path("retrieval").asText()).as(k8s.toString()).isEqualTo("lexical");
                assertThat(k8s.path("vectors_ready").asBoolean()).isFalse();

                // PowerDNS' embeddings queue behind them: lexical-only, and it misses the answer
                JsonNode pdns = search(k, admin, "pdns-4.9", QUERY);
                assertThat(pdns.path("retrieval").asText()).as(pdns.toString()).isEqualTo("lexical");
                assertThat(pdns.path("vectors_ready").asBoolean()).isFalse();
                assertThat(opIds(pdns)).doesNotContain(ANSWER);
                JsonNode mcp = mcpSearch(k, issuer.mcpToken("agent", tenant, "read_only"), "pdns-4.9", QUERY);
                assertThat(mcp.path("retrieval").asText()).as(mcp.toString()).isEqualTo("lexical");
                CliRunner.Result cli = k.cli(Files.createTempDirectory(work, "cli"), admin)
                        .run("operation", "search", "pdns-4.9", QUERY);
                assertThat(cli.out()).as(cli.toString()).contains("note: ranked by words only (lexical): the "
                        + "operation embeddings of pdns-4.9 are still being computed");

                // the lazy path fills them in: later searches are hybrid and find it
                long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
                JsonNode later = search(k, admin, "pdns-4.9", QUERY);
                while (!later.path("retrieval").asText().equals("hybrid")) {
                    assertThat(System.nanoTime()).as("hybrid within 5 minutes").isLessThan(deadline);
                    Thread.sleep(500);
                    later = search(k, admin, "pdns-4.9", QUERY);
                }
                assertThat(later.path("vectors_ready").asBoolean()).isTrue();
                assertThat(opIds(later)).as(later.toString()).first().isEqualTo(ANSWER);
            }
        }
    }

    /** Every ingest runs as a background job, so that its progress is seen. */
    private static Map<String, String> jobsOnly(Map<String, String> settings) {
        settings.put("SVC_INGEST_SYNC_MAX_BYTES", "0");
        return settings;
    }

    private static List<String> opIds(JsonNode result) {
        List<String> out = new ArrayList<>();
        result.path("hits").forEach(h -> {
            String id = h.path("op_id").asText();
            out.add(id.substring(id.lastIndexOf('.') + 1));
        });
        return out;
    }

    private static JsonNode search(TestKernel k, String token, String connector, String query) {
        TestKernel.Response r = k.get("/api/v1/connectors/" + connector + "/operations?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8), token);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static JsonNode mcpSearch(TestKernel k, String token, String connector, String query) throws Exception {
        String body = JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", "tools/call", "params",
                Map.of("name", "search_operations", "arguments", Map.of("connector_id", connector, "query", query),
                        "_meta", Map.of("io.modelcontextprotocol/protocolVersion", "2026-07-28",
                                "io.modelcontextprotocol/clientCapabilities", Map.of()))));
        TestKernel.Response r = k.send("POST", "/mcp", token, body, Map.of("MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", "tools/call", "Mcp-Name", "search_operations",
                "Accept", "application/json, text/event-stream"));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body()).path("result").path("structuredContent");
    }
}
