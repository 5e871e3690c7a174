package dev.backplane.kernel.memory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Memory scopes, lifetimes, promotion and search over REST, the CLI and MCP. */
class MemoryIT extends PerTestTenant {

    private final String alice = issuer.token("alice-" + tenant, tenant, "operator");
    private final String bob = issuer.token("bob-" + tenant, tenant, "operator");

    private TestKernel.Response write(String token, String json) {
        return kernel.send("POST", "/api/v1/memory", token, json, Map.of());
    }

    @Test
    void scopesDecideWhoSeesWhatAndTheirDefaultsLifetimes() {
        var mine = write(alice, "{\"body\": \"I prefer kubectl output as yaml\", \"scope\": \"user-tenant\", "
                + "\"slug\": \"yaml-pref\", \"tags\": [\"pref\"]}");
        assertThat(mine.status()).as(mine.body()).isEqualTo(201);
        Instant expires = Instant.parse(mine.json().path("expires_at").asText());
        assertThat(Duration.between(Instant.now(), expires).toDays()).as("user scopes default to 7 days").isBetween(6L, 7L);
        var shared = write(admin, "{\"body\": \"Change freeze every Friday after 15:00\", \"scope\": \"tenant\", "
                + "\"slug\": \"freeze\"}");
        assertThat(shared.json().path("expires_at").isNull()).as("tenant scope: no expiry").isTrue();
        assertThat(write(alice, "{\"body\": \"x\", \"scope\": \"tenant\"}").status()).as("tenant needs tenant_admin")
                .isEqualTo(403);
        assertThat(write(alice, "{\"body\": \"x\", \"scope\": \"target\"}").json().path("error").asText())
                .isEqualTo("target_name_required");
        assertThat(write(alice, "{\"body\": \"x\", \"scope\": \"galaxy\"}").json().path("error").asText())
                .isEqualTo("invalid_scope");
        var pinned = write(alice, "{\"body\": \"db-1 swaps under load; restart pgbouncer first\", \"scope\": \"target\", "
                + "\"target_name\": \"db-1\", \"slug\": \"db1-swap\"}");
        assertThat(pinned.status()).isEqualTo(201);
        var forever = write(alice, "{\"body\": \"my on-call handle is @alice\", \"scope\": \"user\", \"slug\": \"handle\", "
                + "\"expires_at\": null}");
        assertThat(forever.json().path("expires_at").isNull()).as("expires_at null persists").isTrue();

        JsonNode bobSees = kernel.get("/api/v1/memory", bob).json();
        assertThat(bobSees.findValuesAsText("slug")).contains("freeze", "db1-swap").doesNotContain("yaml-pref", "handle");
        assertThat(kernel.get("/api/v1/memory?tag=pref", alice).json().findValuesAsText("slug")).containsExactly("yaml-pref");
        String aliceElsewhere = issuer.token("alice-" + tenant, UUID.randomUUID(), "operator");
        assertThat(kernel.get("/api/v1/memory", aliceElsewhere).json().findValuesAsText("slug"))
                .as("user scope follows the writer across tenants").containsExactly("handle");

        JsonNode hits = kernel.get("/api/v1/retrieve?query=deploy%20on%20friday%20afternoon", bob).json().path("hits");
        assertThat(hits.get(0).path("slug").asText()).isEqualTo("freeze");
        assertThat(hits.get(0).has("body")).isFalse();
        assertThat(kernel.get("/api/v1/retrieve?query=kubectl%20yaml", bob).json().path("hits").findValuesAsText("slug"))
                .as("an entry excluded by scope gives no hit").doesNotContain("yaml-pref");
        assertThat(kernel.get("/api/v1/retrieve?query=kubectl%20yaml", alice).json().path("hits").findValuesAsText("slug"))
                .as("its owner finds it").contains("yaml-pref");
    }

    @Test
    void promotionGoesStrictlyBroaderAndMoveDeletesTheSource() {
        write(alice, "{\"body\": \"use the blue-green script for shop releases\", \"scope\": \"user-tenant\", "
                + "\"slug\": \"bluegreen\"}");
        assertThat(kernel.send("POST", "/api/v1/memory/user-tenant/bluegreen/promote", alice, "{\"to\": \"user-target\"}",
                Map.of()).json().path("error").asText()).isEqualTo("invalid_promotion");
        assertThat(kernel.send("POST", "/api/v1/memory/user-tenant/bluegreen/promote", alice, "{\"to\": \"tenant\"}",
                Map.of()).status()).as("promoting to tenant needs tenant_admin").isEqualTo(403);
        var moved = kernel.send("POST", "/api/v1/memory/user-tenant/bluegreen/promote", alice, "{\"to\": \"user\", "
                + "\"move\": true}", Map.of());
        assertThat(moved.status()).as(moved.body()).isEqualTo(200);
        assertThat(moved.json().path("scope").asText()).isEqualTo("user");
        assertThat(kernel.get("/api/v1/memory/user-tenant/bluegreen", alice).status()).isEqualTo(404);
        assertThat(kernel.get("/api/v1/memory/user/bluegreen", alice).json().path("body").asText()).contains("blue-green");
    }

    @Test
    void theMigrationNamesPartitionsAsTheServiceDoes() {
        Jdbc jdbc = kernel.jdbc();
        UUID tenantId = UUID.randomUUID();
        for (String sub : new String[] {"alice", "bjørn@example.com", "6f1c-ÄÖÜ-東京"}) {
            for (String scope : new String[] {"user", "user-tenant", "user-target"}) {
                String name = scope.equals("user") ? "user:" + sub : "personal:" + tenantId + ":" + sub;
                assertThat(jdbc.queryOne("SELECT svc_name_uuid(?)", rs -> rs.getObject(1, UUID.class), name).orElseThrow())
                        .as(name).isEqualTo(MemoryService.partition(scope, tenantId, sub));
            }
        }
        assertThat(MemoryService.partition("tenant", tenantId, "alice")).isEqualTo(tenantId);
        assertThat(MemoryService.partition("user-tenant", tenantId, "alice"))
                .as("personal entries are not in the tenant's shared partition").isNotEqualTo(tenantId);
    }

    @Test
    void expiredEntriesAreHiddenUnlessAskedAndSwept() {
        var gone = write(alice, "{\"body\": \"temporary note\", \"scope\": \"user-tenant\", \"slug\": \"tmp\", "
                + "\"expires_at\": \"" + Instant.now().plusSeconds(1) + "\"}");
        assertThat(gone.status()).isEqualTo(201);
        Jdbc jdbc = kernel.jdbc();
        jdbc.update("UPDATE memory_entries SET expires_at = now() - interval '1 minute' WHERE slug = 'tmp'");
        assertThat(kernel.get("/api/v1/memory", alice).json().findValuesAsText("slug")).doesNotContain("tmp");
        assertThat(kernel.get("/api/v1/memory?include_expired=true", alice).json().findValuesAsText("slug")).contains("tmp");
        assertThat(kernel.get("/api/v1/retrieve?query=temporary%20note", alice).json().path("hits")
                .findValuesAsText("slug")).as("an expired entry is no search hit").doesNotContain("tmp");
        assertThat(kernel.get("/api/v1/retrieve?query=temporary%20note&scope=user-tenant", alice).json().path("hits")
                .findValuesAsText("slug")).as("nor within its scope").doesNotContain("tmp");
    }

    @Test
    void theCliAndTheMcpToolsUseTheSameMemory() throws Exception {
        CliRunner cli = kernel.cli(alice);
        var remembered = cli.run("remember", "nginx ingress needs a reload after cert rotation", "--slug", "ingress-reload",
                "--tag", "k8s", "--ttl", "36h");
        assertThat(remembered.exitCode()).as(remembered.toString()).isZero();
        assertThat(cli.run("recall", "user-tenant/ingress-reload").out()).contains("reload after cert rotation");
        assertThat(cli.run("recall", "--query", "certificate rotation ingress").out()).contains("ingress-reload");
        assertThat(cli.run("recall").exitCode()).as("one of the two modes").isEqualTo(2);
        assertThat(cli.run("list", "--tag", "k8s").out()).contains("ingress-reload");
        assertThat(cli.run("remember", "x", "--ttl", "soon").exitCode()).isEqualTo(2);
        assertThat(cli.run("promote", "user-tenant/ingress-reload", "--to", "user").exitCode()).isZero();

        String agent = issuer.mcpToken("alice-" + tenant, tenant, "operator");
        var denied = kernel.send("POST", "/mcp", agent, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"add_to_memory\",\"arguments\":{\"body\":\"x\",\"scope\":\"tenant\"}}}", Map.of());
        assertThat(denied.json().path("error").path("code").asInt()).as("tenant memory by a non-admin: INVALID_PARAMS")
                .isEqualTo(-32602);
        var added = kernel.send("POST", "/mcp", agent, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"add_to_memory\",\"arguments\":{\"body\":\"web-7 has a flaky disk\","
                + "\"scope\":\"target\",\"target_name\":\"web-7\",\"slug\":\"web7-disk\",\"ttl\":\"P30D\"}}}", Map.of());
        assertThat(added.json().path("result").path("structuredContent").path("slug").asText()).isEqualTo("web7-disk");
        var found = kernel.send("POST", "/mcp", agent, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"search_memory\",\"arguments\":{\"query\":\"disk problems on web-7\"}}}", Map.of());
        assertThat(found.json().path("result").path("structuredContent").path("hits").get(0).path("slug").asText())
                .isEqualTo("web7-disk");
        var read = kernel.send("POST", "/mcp", agent, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"svc://memory/target/web7-disk\"}}", Map.of());
        assertThat(read.json().path("result").path("contents").get(0).path("text").asText()).contains("flaky disk");
    }
}
