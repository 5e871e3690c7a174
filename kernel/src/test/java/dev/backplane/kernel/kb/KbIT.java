package dev.backplane.kernel.kb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The knowledge base over REST, the CLI and MCP, on the hybrid engine. */
class KbIT extends PerTestTenant {

    private TestKernel.Response add(String token, String slug, String body, String metadata) {
        return kernel.send("POST", "/api/v1/kb", token, "{\"slug\": \"" + slug + "\", \"body\": \"" + body + "\""
                + (metadata == null ? "" : ", \"metadata\": " + metadata) + "}", Map.of());
    }

    @Test
    void addUpdateInPlaceAndNoReembeddingForAnUnchangedBody() throws Exception {
        var created = add(admin, "pg-failover", "To fail over PostgreSQL promote the replica with pg_ctl promote, "
                + "then repoint the service.", "{\"kind\": \"runbook\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("outcome").asText()).isEqualTo("created");
        List<String> embedded = KbChunks.versions(kernel, tenant, "pg-failover");
        assertThat(embedded).hasSize(1);
        String firstUpdate = created.json().path("entry").path("updated_at").asText();
        Thread.sleep(20);

        var same = add(admin, "pg-failover", "To fail over PostgreSQL promote the replica with pg_ctl promote, "
                + "then repoint the service.", "{\"kind\": \"runbook\"}");
        assertThat(same.status()).isEqualTo(200);
        assertThat(same.json().path("outcome").asText()).isEqualTo("unchanged");
        assertThat(same.json().path("entry").path("updated_at").asText()).isNotEqualTo(firstUpdate);
        assertThat(KbChunks.versions(kernel, tenant, "pg-failover")).as("same hash: not embedded again")
                .isEqualTo(embedded);

        var changed = add(admin, "pg-failover", "Failover: run pg_ctl promote on the standby.", "{\"kind\": \"runbook\"}");
        assertThat(changed.json().path("outcome").asText()).isEqualTo("updated");
        assertThat(changed.json().path("entry").path("id").asText())
                .isEqualTo(created.json().path("entry").path("id").asText());
        assertThat(KbChunks.versions(kernel, tenant, "pg-failover")).isNotEqualTo(embedded);
        assertThat(kernel.get("/api/v1/kb/pg-failover", operator).json().path("body").asText()).startsWith("Failover");
    }

    /**
     * Security review D11: an entry stored without its retrieval rows (an older kernel that died between
     * the two writes) is re-indexed by the next add of the same body instead of being "unchanged" and
     * unsearchable forever; an add now writes the entry and its index in one transaction.
     */
    @Test
    void anEntryMissingItsIndexIsReindexedNotReportedUnchanged() {
        Jdbc jdbc = kernel.jdbc();
        String body = "Rotate the etcd encryption key with the kube-apiserver encryption config and restart.";
        jdbc.update("INSERT INTO kb_entries (id, tenant_id, slug, body, body_hash, metadata, created_by, updated_by) "
                + "VALUES (?, ?, 'etcd-key-rotation', ?, ?, '{}'::jsonb, 'old-kernel', 'old-kernel')", UUID.randomUUID(),
                tenant, body, dev.backplane.kernel.util.Digests.sha256Hex(body));
        assertThat(KbChunks.versions(kernel, tenant, "etcd-key-rotation")).as("stored, not indexed").isEmpty();
        var again = add(admin, "etcd-key-rotation", body, null);
        assertThat(again.json().path("outcome").asText()).as(again.body()).isEqualTo("updated");
        assertThat(KbChunks.versions(kernel, tenant, "etcd-key-rotation")).hasSize(1);
        assertThat(kernel.send("POST", "/api/v1/kb/search", operator, "{\"query\": \"etcd encryption key rotation\"}",
                Map.of()).json().findValuesAsText("slug")).contains("etcd-key-rotation");
        assertThat(jdbc.queryOne("SELECT count(*) FROM retrieval_docs d JOIN kb_entries e ON e.id = d.entry_id "
                + "WHERE e.tenant_id = ?", rs -> rs.getLong(1), tenant).orElseThrow())
                .as("every kb entry of the tenant has its lexical row").isEqualTo(jdbc.queryOne(
                        "SELECT count(*) FROM kb_entries WHERE tenant_id = ?", rs -> rs.getLong(1), tenant).orElseThrow());
    }

    /**
     * A second engine on the kernel's change feed (another replica's view): once it holds the tenant's
     * slices, writes made through the kernel reach it entry by entry — an updated entry is found by its
     * new words and no longer by its old ones, a deleted one is gone from both sides, a new one appears.
     */
    @Test
    void cachedSlicesFollowWritesEntryByEntry() {
        Jdbc jdbc = kernel.jdbc();
        try (var engine = new dev.backplane.kernel.retrieval.RetrievalEngine(jdbc, kernel.kernel().changeFeed(),
                new dev.backplane.kernel.retrieval.Embedder())) {
            KbService other = new KbService(jdbc, engine);
            var lexical = dev.backplane.kernel.retrieval.RetrievalEngine.Mode.LEXICAL;
            var dense = dev.backplane.kernel.retrieval.RetrievalEngine.Mode.DENSE;
            add(admin, "a1", "zebra crossing quartz", null);
            add(admin, "a2", "ocean tides and harbour cranes", null);
            assertThat(slugs(other.search(tenant, "zebra", 10, Map.of(), lexical))).containsExactly("a1");
            assertThat(slugs(other.search(tenant, "ocean tides", 10, Map.of(), dense))).first().isEqualTo("a2");

            add(admin, "a1", "violet gamma rays", null);
            assertThat(kernel.send("DELETE", "/api/v1/kb/a2?confirm=true", admin, null, Map.of()).status()).isIn(200, 204);
            add(admin, "a3", "zebra lagoon", null);

            assertThat(slugs(other.search(tenant, "zebra", 10, Map.of(), lexical))).containsExactly("a3");
            assertThat(slugs(other.search(tenant, "violet", 10, Map.of(), lexical))).containsExactly("a1");
            assertThat(slugs(other.search(tenant, "ocean tides", 10, Map.of(), lexical))).isEmpty();
            assertThat(slugs(other.search(tenant, "ocean tides", 10, Map.of(), dense))).doesNotContain("a2")
                    .containsExactlyInAnyOrder("a1", "a3");
        }
    }

    private static List<String> slugs(List<KbService.Hit> hits) {
        return hits.stream().map(KbService.Hit::slug).toList();
    }

    @Test
    void rolesBadInputAndNotFound() {
        assertThat(add(operator, "x", "y", null).status()).as("tenant_admin writes").isEqualTo(403);
        assertThat(add(admin, "Bad Slug", "y", null).json().path("error").asText()).isEqualTo("invalid_slug");
        assertThat(add(admin, "ok", " ", null).json().path("error").asText()).isEqualTo("invalid_body");
        assertThat(kernel.get("/api/v1/kb/nope", operator).status()).isEqualTo(404);
        assertThat(kernel.get("/api/v1/kb?limit=501", operator).status()).isEqualTo(422);
        assertThat(kernel.get("/api/v1/kb?limit=x", operator).status()).isEqualTo(422);
        assertThat(kernel.send("POST", "/api/v1/kb/search", operator, "{\"query\": \"a\", \"limit\": 51}", Map.of())
                .status()).isEqualTo(422);
        assertThat(kernel.send("POST", "/api/v1/kb/search", operator, "{\"query\": \"\"}", Map.of()).status())
                .isEqualTo(422);
        var nul = kernel.send("POST", "/api/v1/kb/search", operator, "{\"query\": \"pg\\u0000down\"}", Map.of());
        assertThat(nul.status()).as(nul.body()).isEqualTo(422);
        assertThat(nul.json().path("error").asText()).isEqualTo("invalid_query");
        var tooLong = kernel.send("POST", "/api/v1/kb/search", operator, "{\"query\": \"" + "word ".repeat(4000) + "\"}",
                Map.of());
        assertThat(tooLong.status()).isEqualTo(422);
        assertThat(tooLong.json().path("extras").path("max_chars").asInt()).isEqualTo(16384);
        assertThat(kernel.get("/api/v1/retrieve?query=pg%00down", operator).json().path("error").asText())
                .as("memory search too").isEqualTo("invalid_query");
        assertThat(kernel.get("/api/v1/connectors/none-1.x/operations?query=pg%00down", operator).status())
                .isIn(404, 422);
        assertThat(kernel.send("DELETE", "/api/v1/kb/nope", admin, null, Map.of()).status()).isEqualTo(404);
    }

    @Test
    void searchIsHybridReturnsSnippetsAndFiltersByMetadataAndListsAndDeletes() {
        add(admin, "dns-ttl", "Lower the DNS record TTL to 60 seconds a day before migrating a zone.", "{\"kind\": \"runbook\"}");
        add(admin, "k8s-crashloop", "A pod in CrashLoopBackOff: read the previous container's logs, then describe "
                + "the pod for OOMKilled.", "{\"kind\": \"known-issue\", \"service\": \"shop\"}");
        add(admin, "coffee", "The office coffee machine is descaled every Friday.", null);
        JsonNode hits = kernel.send("POST", "/api/v1/kb/search", operator, "{\"query\": \"container keeps restarting\"}",
                Map.of()).json().path("hits");
        assertThat(hits.get(0).path("slug").asText()).as("found by meaning, not words").isEqualTo("k8s-crashloop");
        assertThat(hits.get(0).has("body")).as("hits carry no full body").isFalse();
        assertThat(hits.get(0).path("snippet").asText()).contains("CrashLoopBackOff");
        JsonNode filtered = kernel.send("POST", "/api/v1/kb/search", operator, "{\"query\": \"container keeps "
                + "restarting\", \"filters\": {\"kind\": \"runbook\"}}", Map.of()).json().path("hits");
        assertThat(filtered.findValuesAsText("slug")).containsExactly("dns-ttl");
        assertThat(kernel.get("/api/v1/kb?filter=k8s%25", operator).json().findValuesAsText("slug"))
                .containsExactly("k8s-crashloop");
        assertThat(kernel.send("DELETE", "/api/v1/kb/coffee", operator, null, Map.of()).status()).isEqualTo(403);
        assertThat(kernel.send("DELETE", "/api/v1/kb/coffee", admin, null, Map.of()).status()).isEqualTo(200);
        assertThat(kernel.send("POST", "/api/v1/kb/search", operator, "{\"query\": \"coffee machine descaling\"}",
                Map.of()).json().path("hits").findValuesAsText("slug")).doesNotContain("coffee");
        String other = issuer.token("admin", UUID.randomUUID(), "tenant_admin");
        assertThat(kernel.send("POST", "/api/v1/kb/search", other, "{\"query\": \"pod restarting\"}", Map.of()).json()
                .path("hits").size()).as("tenants do not see each other's kb").isZero();
    }

    @Test
    void theCliAndTheMcpToolsUseTheSameKb() throws Exception {
        CliRunner cli = kernel.cli(admin);
        Path file = cli.file("note.md", "# Certificates\nRenew the ingress certificate with cert-manager before it expires.");
        var added = cli.run("kb", "add", "cert-renewal", "--body", "@" + file, "--metadata", "kind=runbook,team=platform");
        assertThat(added.exitCode()).as(added.toString()).isZero();
        assertThat(cli.run("kb", "show", "cert-renewal").out()).contains("cert-manager").contains("team");
        assertThat(cli.run("kb", "list", "--filter", "cert%").out()).contains("cert-renewal");
        var search = cli.run("kb", "search", "tls certificate expiry");
        assertThat(search.out()).contains("cert-renewal");
        assertThat(cli.run("kb", "search", "x", "--limit", "51").exitCode()).isEqualTo(2);
        assertThat(cli.run("kb", "delete", "cert-renewal").exitCode()).as("delete needs --confirm").isEqualTo(2);

        String mcp = issuer.mcpToken("agent-" + tenant, tenant, "operator");
        var found = kernel.send("POST", "/mcp", mcp, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"search_knowledge\",\"arguments\":{\"query\":\"renew tls certificates\"}}}", Map.of());
        assertThat(found.json().path("result").path("structuredContent").toString()).contains("cert-renewal");
        var read = kernel.send("POST", "/mcp", mcp, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"svc://kb/cert-renewal\"}}", Map.of());
        assertThat(read.json().path("result").path("contents").get(0).path("text").asText()).contains("# Certificates");
        var denied = kernel.send("POST", "/mcp", mcp, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"add_to_knowledge\",\"arguments\":{\"slug\":\"x\",\"body\":\"y\"}}}", Map.of());
        assertThat(denied.json().path("error").path("code").asInt()).as("an operator's agent cannot write the kb")
                .isEqualTo(-32602);
        assertThat(cli.run("kb", "delete", "cert-renewal", "--confirm").exitCode()).isZero();
        var gone = kernel.send("POST", "/mcp", mcp, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"svc://kb/cert-renewal\"}}", Map.of());
        assertThat(gone.json().path("error").path("code").asInt()).isEqualTo(-32002);
    }
}
