package dev.backplane.kernel.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.credentials.FileKvStore;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.util.Digests;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The docs add-on over REST, the CLI and MCP, against a fake corpus-over-HTTP service on loopback. */
class DocsIT {

    private static final String COLLECTIONS = "/api/v1/docs/collections";
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static FakeCorpus corpus;
    private static Path data;

    private final UUID tenant = UUID.randomUUID();
    private final UUID other = UUID.randomUUID();
    private final String suffix = tenant.toString().substring(0, 8);
    private final String admin = issuer.token("admin-" + tenant, tenant, "tenant_admin");
    private final String operator = issuer.token("op-" + tenant, tenant, "operator");
    private final String reader = issuer.token("ro-" + tenant, tenant, "read_only");
    private final String otherAdmin = issuer.token("admin-" + other, other, "tenant_admin");
    private final String platform = issuer.platformAdminToken("platform-" + tenant, UUID.randomUUID());

    @BeforeAll
    static void start() throws Exception {
        Path work = TempDirs.create("svc-docs-it");
        data = work.resolve("data");
        issuer = new TestIssuer();
        corpus = new FakeCorpus(Map.of(
                "/pg/search", List.of(
                        new FakeCorpus.Doc("pg-failover-1", "Failover", "https://docs.example.com/pg/failover",
                                "# Failover\nTo fail over, promote the standby server with pg_ctl promote. The old "
                                        + "primary must be rewound with pg_rewind before it rejoins as a standby. "
                                        + "Replication slots are not copied to the standby."),
                        new FakeCorpus.Doc("pg-backup-1", "Backups", "https://docs.example.com/pg/backup",
                                "Take a base backup with pg_basebackup. Point-in-time recovery replays the archived "
                                        + "WAL up to a target time.")),
                "/k8s/search", List.of(
                        new FakeCorpus.Doc("k8s-certs-1", "Certificate rotation", "https://docs.example.com/k8s/certs",
                                "Rotate the kubelet client certificate by enabling rotateCertificates in the kubelet "
                                        + "config. The kubelet requests a new certificate before the old one expires."),
                        new FakeCorpus.Doc("k8s-pods-1", "Pods", "https://docs.example.com/k8s/pods",
                                "A pod in CrashLoopBackOff restarts again and again; read the previous container "
                                        + "logs of the pod to find out why it fails to start over."))));
        Map<String, String> settings = TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins")));
        settings.put("SVC_DOCS_BACKEND_TIMEOUT_MS", "1500");
        kernel = TestKernel.start(data, settings);
    }

    @AfterAll
    static void stop() {
        kernel.close();
        corpus.close();
        issuer.close();
    }

    private TestKernel.Response post(String path, String token, String body) {
        return kernel.send("POST", path, token, body, Map.of());
    }

    private TestKernel.Response create(String token, String key, String url, String extra) {
        return post(COLLECTIONS, token, "{\"key\": \"" + key + "\", \"backend_type\": \"corpus-http\", \"backend_ref\": "
                + (url == null ? "{}" : "{\"url\": \"" + url + "\"}") + extra + "}");
    }

    private TestKernel.Response search(String token, String query, String collection, String extra) {
        return post("/api/v1/docs/search", token, "{\"query\": \"" + query + "\""
                + (collection == null ? "" : ", \"collection\": " + collection) + extra + "}");
    }

    private static void assertError(TestKernel.Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().path("error").asText()).as(r.body()).isEqualTo(code);
    }

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void collectionsAreCreatedUpdatedAndValidatedByRole() {
        String key = "pg-" + suffix;
        assertError(create(operator, key, corpus.url("/pg/search"), ""), 403, "insufficient_role");
        var created = create(admin, key, corpus.url("/pg/search"), ", \"description\": \"PostgreSQL manual\", "
                + "\"product\": [\"postgresql\"], \"vendor\": \"pgdg\", \"when_to_use\": \"database questions\"");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode c = created.json();
        assertThat(c.path("scope").asText()).isEqualTo("tenant");
        assertThat(c.path("state").asText()).isEqualTo("enabled");
        assertThat(c.path("searchable").asBoolean()).isTrue();
        assertThat(c.path("capability").asText()).isEqualTo("svc-docs:" + key);
        assertThat(c.path("product").toString()).isEqualTo("[\"postgresql\"]");
        assertError(create(admin, key, corpus.url("/pg/search"), ""), 409, "collection_exists");

        assertError(create(admin, "Bad Key", corpus.url("/pg/search"), ""), 422, "invalid_key");
        assertError(create(admin, "all", corpus.url("/pg/search"), ""), 422, "invalid_key");
        assertError(post(COLLECTIONS, admin, "{\"key\": \"x-" + suffix + "\", \"backend_type\": \"elastic\"}"), 422,
                "unknown_backend_type");
        var ssrf = create(admin, "x-" + suffix, "http://10.1.2.3/search", "");
        assertError(ssrf, 422, "ssrf_refused");
        assertThat(ssrf.json().path("extras").path("field").asText()).isEqualTo("backend_ref.url");
        assertError(create(admin, "x-" + suffix, "ftp://docs.example.com/x", ""), 422, "invalid_backend_ref");
        assertError(post(COLLECTIONS, admin, "{\"key\": \"x-" + suffix + "\", \"backend_type\": \"corpus-http\", "
                + "\"backend_ref\": {\"url\": \"" + corpus.url("/pg/search") + "\", \"headers\": {\"Authorization\": "
                + "\"Bearer leak\"}}}"), 422, "invalid_backend_ref");
        assertError(post(COLLECTIONS, admin, "{\"key\": \"x-" + suffix + "\", \"backend_type\": \"corpus-http\", "
                + "\"backend_ref\": {\"url\": \"" + corpus.url("/pg/search") + "\", \"token\": \"x\"}}"), 422,
                "invalid_backend_ref");

        var updated = kernel.send("PATCH", COLLECTIONS + "/" + key, admin, "{\"description\": \"PG 17 manual\", "
                + "\"product\": [\"postgresql\", \"pgbouncer\"]}", Map.of());
        assertThat(updated.status()).as(updated.body()).isEqualTo(200);
        assertThat(updated.json().path("description").asText()).isEqualTo("PG 17 manual");
        assertThat(updated.json().path("vendor").asText()).as("fields not given are kept").isEqualTo("pgdg");
        assertError(kernel.send("PATCH", COLLECTIONS + "/" + key, operator, "{\"description\": \"x\"}", Map.of()),
                403, "insufficient_role");
        var cleared = kernel.send("PATCH", COLLECTIONS + "/" + key, admin, "{\"backend_ref\": {}}", Map.of());
        assertThat(cleared.json().path("backend_ref").size()).as("'{}' clears the backend").isZero();
        assertError(search(reader, "failover", "\"" + key + "\"", ""), 409, "backend_not_configured");
        kernel.send("PATCH", COLLECTIONS + "/" + key, admin, "{\"backend_ref\": {\"url\": \"" + corpus.url("/pg/search")
                + "\"}}", Map.of());
        assertThat(search(reader, "failover", "\"" + key + "\"", "").status()).isEqualTo(200);

        assertThat(kernel.get(COLLECTIONS, reader).json().path("collections").findValuesAsText("key")).contains(key);
        assertThat(kernel.get(COLLECTIONS, otherAdmin).json().path("collections").findValuesAsText("key"))
                .as("another tenant does not see it").doesNotContain(key);
        assertThat(kernel.get(COLLECTIONS + "?vendor=nobody", reader).json().path("collections").size()).isZero();
        assertError(kernel.get(COLLECTIONS + "?limit=501", reader), 422, "invalid_limit");
        create(admin, "q-" + suffix, null, "");
        var page = kernel.get(COLLECTIONS + "?limit=1", reader).json();
        assertThat(page.path("collections").size()).isEqualTo(1);
        assertThat(kernel.get(COLLECTIONS + "?limit=1&cursor=" + page.path("next_cursor").asText(), reader).json()
                .path("collections").get(0).path("key").asText()).isNotEqualTo(page.path("collections").get(0)
                .path("key").asText());
        assertError(search(otherAdmin, "failover", "\"" + key + "\"", ""), 404, "collection_not_found");
    }

    @Test
    void disableHidesDeleteNeedsDisabledAndTenantOwned() {
        String key = "pgd-" + suffix;
        create(admin, key, corpus.url("/pg/search"), "");
        assertError(kernel.send("DELETE", COLLECTIONS + "/" + key, admin, null, Map.of()), 409, "collection_enabled");
        var disabled = post(COLLECTIONS + "/" + key + "/disable", admin, null);
        assertThat(disabled.json().path("state").asText()).isEqualTo("disabled");
        assertThat(disabled.json().path("searchable").asBoolean()).isFalse();
        assertError(search(reader, "failover", "\"" + key + "\"", ""), 409, "collection_disabled");
        assertThat(search(reader, "failover", "\"all\"", "").json().path("collections").toString())
                .as("disabled collections are hidden from 'all'").doesNotContain(key);
        assertThat(post(COLLECTIONS + "/" + key + "/enable", admin, null).json().path("state").asText())
                .isEqualTo("enabled");
        assertThat(search(reader, "failover", "\"all\"", "").json().path("collections").toString()).contains(key);
        post(COLLECTIONS + "/" + key + "/disable", admin, null);
        assertError(kernel.send("DELETE", COLLECTIONS + "/" + key, operator, null, Map.of()), 403, "insufficient_role");
        assertThat(kernel.send("DELETE", COLLECTIONS + "/" + key, admin, null, Map.of()).status()).isEqualTo(200);
        assertError(kernel.send("DELETE", COLLECTIONS + "/" + key, admin, null, Map.of()), 404, "collection_not_found");

        String global = "gd-" + suffix;
        assertError(create(admin, global, corpus.url("/k8s/search"), ", \"global\": true"), 403, "insufficient_role");
        assertThat(create(platform, global, corpus.url("/k8s/search"), ", \"global\": true").json().path("scope")
                .asText()).isEqualTo("global");
        assertError(create(admin, global, corpus.url("/k8s/search"), ""), 409, "collection_exists");
        assertError(post(COLLECTIONS + "/" + global + "/disable", admin, null), 403, "insufficient_role");
        post(COLLECTIONS + "/" + global + "/disable", platform, null);
        assertError(kernel.send("DELETE", COLLECTIONS + "/" + global, platform, null, Map.of()), 409,
                "collection_not_tenant_owned");
    }

    @Test
    void globalCollectionsNeedTheCapabilityGrantedPerTenant() throws Exception {
        String global = "k8s-" + suffix;
        create(platform, global, corpus.url("/k8s/search"), ", \"global\": true");
        var refused = search(operator, "rotate certificate", "\"" + global + "\"", "");
        assertError(refused, 403, "capability_required");
        assertThat(refused.json().path("extras").path("capability").asText()).isEqualTo("svc-docs:" + global);
        assertThat(refused.json().path("message").asText()).contains("svc-docs:" + global);
        assertThat(kernel.get(COLLECTIONS, admin).json().path("collections").findValuesAsText("key"))
                .as("an ungranted global is not listed").doesNotContain(global);

        String grant = COLLECTIONS + "/" + global + "/grants/" + tenant;
        assertError(post(grant, admin, null), 403, "insufficient_role");
        var granted = post(grant, platform, null);
        assertThat(granted.status()).as(granted.body()).isEqualTo(200);
        assertThat(granted.json().path("capability").asText()).isEqualTo("svc-docs:" + global);
        assertThat(post(grant, platform, null).status()).as("idempotent").isEqualTo(200);
        var found = search(operator, "rotate certificate", "\"" + global + "\"", "");
        assertThat(found.status()).as(found.body()).isEqualTo(200);
        assertThat(found.json().path("chunks").get(0).path("chunk_id").asText()).isEqualTo("k8s-certs-1");
        assertThat(kernel.get(COLLECTIONS, admin).json().path("collections").findValuesAsText("key")).contains(global);
        assertError(search(otherAdmin, "rotate certificate", "\"" + global + "\"", ""), 403, "capability_required");
        assertThat(kernel.get(COLLECTIONS + "/" + global + "/grants", platform).json().path("grants")
                .findValuesAsText("tenant_id")).containsExactly(tenant.toString());

        String own = "own-" + suffix;
        create(admin, own, corpus.url("/pg/search"), "");
        assertError(kernel.send("POST", COLLECTIONS + "/" + own + "/grants/" + other, platform, null,
                Map.of("X-Svc-Tenant", tenant.toString())), 409, "collection_not_global");

        assertThat(kernel.send("DELETE", grant, platform, null, Map.of()).status()).isEqualTo(200);
        assertError(search(operator, "rotate certificate", "\"" + global + "\"", ""), 403, "capability_required");
        assertError(kernel.send("DELETE", grant, platform, null, Map.of()), 404, "grant_not_found");
    }

    @Test
    void searchFansOutMergesByRankPassesFiltersAndBoundsTheLimit() {
        String pg = "pgs-" + suffix;
        String k8s = "k8ss-" + suffix;
        create(admin, pg, corpus.url("/pg/search"), ", \"product\": [\"postgresql\"]");
        create(platform, k8s, corpus.url("/k8s/search"), ", \"global\": true, \"product\": [\"kubernetes\"]");
        post(COLLECTIONS + "/" + k8s + "/grants/" + tenant, platform, null);

        var all = search(reader, "standby certificate pod restarts", "\"all\"", "");
        assertThat(all.status()).as(all.body()).isEqualTo(200);
        JsonNode r = all.json();
        assertThat(r.path("collections").toString()).contains(pg).contains(k8s);
        List<String> order = new ArrayList<>();
        r.path("chunks").forEach(ch -> order.add(ch.path("collection").asText()));
        assertThat(order.subList(0, 2)).as("rank 1 of each list first, then rank 2").containsExactlyInAnyOrder(pg, k8s);
        JsonNode first = r.path("chunks").get(0);
        assertThat(first.path("rank").asInt()).isEqualTo(1);
        assertThat(first.path("citation").path("chunk_id").asText()).isEqualTo(first.path("chunk_id").asText());
        assertThat(first.path("citation").path("url").asText()).startsWith("https://docs.example.com/");
        assertThat(first.path("citation").path("title").asText()).isNotBlank();
        assertThat(first.path("score").asDouble()).isGreaterThanOrEqualTo(r.path("chunks").get(2).path("score").asDouble());

        var named = search(reader, "standby certificate", "[\"" + pg + "\", \"" + k8s + "\"]", ", \"limit\": 1");
        assertThat(named.json().path("chunks").size()).isEqualTo(1);
        assertThat(corpus.last("/pg/search").body().path("limit").asInt()).isEqualTo(1);
        search(reader, "standby", "\"" + pg + "\"", "");
        assertThat(corpus.last("/pg/search").body().path("limit").asInt()).as("default limit").isEqualTo(10);

        search(reader, "standby", "\"" + pg + "\"", ", \"product\": \"postgresql\", \"version\": \"17\"");
        JsonNode filters = corpus.last("/pg/search").body().path("filters");
        assertThat(filters.path("product").asText()).isEqualTo("postgresql");
        assertThat(filters.path("version").asText()).isEqualTo("17");
        var onlyPg = search(reader, "standby certificate", "\"all\"", ", \"product\": \"postgresql\"");
        assertThat(onlyPg.json().path("collections").toString()).as("'all' skips collections of other products")
                .contains(pg).doesNotContain(k8s);

        assertError(search(reader, "standby", null, ""), 422, "collection_required");
        assertError(search(reader, "standby", "[]", ""), 422, "collection_required");
        assertError(search(reader, "standby", "\"" + pg + "\"", ", \"limit\": 51"), 422, "invalid_limit");
        assertError(search(reader, "standby", "\"" + pg + "\"", ", \"limit\": 0"), 422, "invalid_limit");
        assertError(search(reader, " ", "\"" + pg + "\"", ""), 422, "invalid_query");
        assertThat(search(reader, "standby", "\"" + pg + "\"", ", \"limit\": 50").status()).isEqualTo(200);
    }

    @Test
    void backendFailuresAreClearErrorsNeverA500() throws Exception {
        String good = "good-" + suffix;
        String down = "down-" + suffix;
        create(admin, good, corpus.url("/pg/search"), "");
        create(admin, down, "http://127.0.0.1:" + closedPort() + "/search", "");
        create(admin, "broken-" + suffix, corpus.url("/broken"), "");
        create(admin, "garbage-" + suffix, corpus.url("/garbage"), "");
        create(admin, "slow-" + suffix, corpus.url("/slow"), "");

        var unreachable = search(reader, "failover", "\"" + down + "\"", "");
        assertError(unreachable, 502, "backend_unreachable");
        assertThat(unreachable.json().path("extras").path("collection").asText()).isEqualTo(down);
        var broken = search(reader, "failover", "\"broken-" + suffix + "\"", "");
        assertError(broken, 502, "backend_error");
        assertThat(broken.json().path("extras").path("backend_status").asInt()).isEqualTo(500);
        var garbage = search(reader, "failover", "\"garbage-" + suffix + "\"", "");
        assertError(garbage, 502, "backend_error");
        assertThat(garbage.json().path("extras").path("reason").asText()).isEqualTo("malformed_response");
        var slow = search(reader, "failover", "\"slow-" + suffix + "\"", "");
        assertError(slow, 502, "backend_unreachable");
        assertThat(slow.json().path("extras").path("reason").asText()).isEqualTo("timeout");

        var partial = search(reader, "failover", "[\"" + good + "\", \"" + down + "\"]", "");
        assertThat(partial.status()).as("one collection down, the other answers").isEqualTo(200);
        assertThat(partial.json().path("chunks").size()).isPositive();
        assertThat(partial.json().path("failed").get(0).path("collection").asText()).isEqualTo(down);
        assertThat(partial.json().path("failed").get(0).path("error_code").asText()).isEqualTo("backend_unreachable");

        var probe = post(COLLECTIONS + "/" + good + "/probe", operator, null);
        assertThat(probe.status()).as(probe.body()).isEqualTo(200);
        assertThat(probe.json().path("ok").asBoolean()).isTrue();
        assertError(post(COLLECTIONS + "/" + down + "/probe", operator, null), 502, "backend_unreachable");
        assertError(post(COLLECTIONS + "/" + good + "/probe", reader, null), 403, "insufficient_role");
    }

    @Test
    void askQuotesSentencesWithCitationsOrSaysNoGroundedAnswer() {
        String pg = "pga-" + suffix;
        create(admin, pg, corpus.url("/pg/search"), "");
        var asked = post("/api/v1/docs/ask", reader, "{\"query\": \"how do I promote the standby during failover\", "
                + "\"collection\": \"" + pg + "\"}");
        assertThat(asked.status()).as(asked.body()).isEqualTo(200);
        JsonNode a = asked.json();
        assertThat(a.path("grounded").asBoolean()).isTrue();
        assertThat(a.path("answer").asText()).contains("pg_ctl promote").contains("[1]");
        JsonNode chunks = search(reader, "how do I promote the standby during failover", "\"" + pg + "\"", "").json()
                .path("chunks");
        Matcher claims = Pattern.compile("(.+?) \\[(\\d+)]").matcher(a.path("answer").asText());
        int count = 0;
        while (claims.find()) {
            count++;
            int ref = Integer.parseInt(claims.group(2));
            JsonNode source = a.path("sources").get(ref - 1);
            assertThat(source.path("ref").asInt()).isEqualTo(ref);
            String chunkId = source.path("chunk_id").asText();
            String text = null;
            for (JsonNode ch : chunks) {
                if (ch.path("chunk_id").asText().equals(chunkId)) {
                    text = ch.path("text").asText().replaceAll("\\s+", " ");
                }
            }
            assertThat(text).as("source " + ref + " resolves to a retrieved passage").isNotNull();
            assertThat(text).as("the claim is quoted from its source").contains(claims.group(1).strip());
        }
        assertThat(count).isPositive();
        assertThat(post("/api/v1/docs/ask", reader, "{\"query\": \"how do I promote the standby during failover\", "
                + "\"collection\": \"" + pg + "\"}").json().path("answer").asText()).as("deterministic")
                .isEqualTo(a.path("answer").asText());

        for (String q : List.of("coffee machine descaling", "the quantum entanglement")) {
            JsonNode none = post("/api/v1/docs/ask", reader, "{\"query\": \"" + q + "\", \"collection\": \"" + pg
                    + "\"}").json();
            assertThat(none.path("answer").asText()).as(q).isEqualTo("no grounded answer");
            assertThat(none.path("grounded").asBoolean()).isFalse();
            assertThat(none.path("sources").size()).isZero();
        }
        assertError(post("/api/v1/docs/ask", reader, "{\"query\": \"failover\"}"), 422, "collection_required");
    }

    @Test
    void everyQueryIsAuditedWithTheQueryHashedNeverStored() {
        String pg = "pgau-" + suffix;
        create(admin, pg, corpus.url("/pg/search"), "");
        String secretQuery = "zebra-" + suffix + " failover standby";
        assertThat(search(operator, secretQuery, "\"" + pg + "\"", "").status()).isEqualTo(200);
        post("/api/v1/docs/ask", operator, "{\"query\": \"" + secretQuery + "\", \"collection\": \"" + pg + "\"}");
        create(platform, "gau-" + suffix, corpus.url("/pg/search"), ", \"global\": true");
        search(operator, secretQuery, "\"gau-" + suffix + "\"", "");
        search(operator, secretQuery, null, "");

        Jdbc jdbc = new Jdbc(kernel.kernel().database().dataSource());
        List<String> rows = jdbc.query("SELECT op_id || ' ' || op_class || ' ' || result_status || ' ' || "
                + "coalesce(error_code, '-') || ' ' || params_hash || ' ' || (extras->>'query_sha256') FROM audit_rows "
                + "WHERE tenant_id = ? AND op_id LIKE 'svc.docs.%' ORDER BY occurred_at", rs -> rs.getString(1), tenant);
        String hash = Digests.sha256Hex(secretQuery);
        assertThat(rows).containsExactly(
                "svc.docs.search read ok - " + hash + " " + hash,
                "svc.docs.ask read ok - " + hash + " " + hash,
                "svc.docs.search read denied capability_required " + hash + " " + hash,
                "svc.docs.search read error collection_required " + hash + " " + hash);
        assertThat(jdbc.query("SELECT count(*) FROM audit_rows a WHERE row_to_json(a)::text LIKE ?",
                rs -> rs.getLong(1), "%zebra-" + suffix + "%")).as("the raw query is in no audit row").containsExactly(0L);
    }

    @Test
    void aBearerTokenComesFromTheSecretRefAtCallTime() {
        String key = "tok-" + suffix;
        String ref = "tenants/" + tenant + "/docs-" + key;
        var outside = post(COLLECTIONS, admin, "{\"key\": \"" + key + "\", \"backend_type\": \"corpus-http\", "
                + "\"backend_ref\": {\"url\": \"" + corpus.url("/pg/search") + "\", \"secret_ref\": \"tenants/"
                + other + "/x\"}}");
        assertError(outside, 422, "secret_ref_outside_tenant_scope");
        var created = post(COLLECTIONS, admin, "{\"key\": \"" + key + "\", \"backend_type\": \"corpus-http\", "
                + "\"backend_ref\": {\"url\": \"" + corpus.url("/pg/search") + "\", \"secret_ref\": \"" + ref + "\", "
                + "\"headers\": {\"X-Corpus-Tenant\": \"acme\"}}}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertError(search(reader, "failover", "\"" + key + "\"", ""), 502, "backend_credential_unavailable");
        new FileKvStore(data.resolve("kv")).write(ref, Map.of("token", "corpus-s3cret"));
        assertThat(search(reader, "failover", "\"" + key + "\"", "").status()).isEqualTo(200);
        FakeCorpus.Seen seen = corpus.last("/pg/search");
        assertThat(seen.authorization()).isEqualTo("Bearer corpus-s3cret");
        assertThat(seen.customHeader()).isEqualTo("acme");
        assertThat(kernel.get(COLLECTIONS, admin).body()).doesNotContain("corpus-s3cret").contains(ref);
        String global = "gtok-" + suffix;
        create(platform, global, null, ", \"global\": true");
        assertError(kernel.send("PATCH", COLLECTIONS + "/" + global, platform, "{\"backend_ref\": {\"url\": \""
                + corpus.url("/pg/search") + "\", \"secret_ref\": \"tenants/" + tenant + "/x\"}}", Map.of()), 422,
                "invalid_secret_ref");
        assertThat(kernel.send("PATCH", COLLECTIONS + "/" + global, platform, "{\"backend_ref\": {\"url\": \""
                + corpus.url("/pg/search") + "\", \"secret_ref\": \"platform/docs/" + global + "\"}}", Map.of())
                .status()).as("a global collection's secret lives under platform/docs/").isEqualTo(200);
    }

    @Test
    void theCliVerbs() throws Exception {
        Path home = TempDirs.create("svc-docs-cli");
        CliRunner cli = new CliRunner(home).env("SVC_TOKEN", admin).env("SVC_BACKPLANE", kernel.url())
                .env("SVC_INSECURE_ALLOW_HTTP", "1");
        String key = "cli-" + suffix;
        Path file = home.resolve("collection.yaml");
        Files.writeString(file, "backend_type: corpus-http\nbackend_ref:\n  url: " + corpus.url("/pg/search")
                + "\ndescription: PostgreSQL manual\nproduct: [postgresql]\n");
        var created = cli.run("docs", "collections", "create", key, "--from-file", file.toString(), "--vendor", "pgdg",
                "--when-to-use", "database failover questions");
        assertThat(created.exitCode()).as(created.toString()).isZero();
        assertThat(created.out()).contains("created doc collection " + key).contains("svc-docs:" + key);
        var list = cli.run("docs", "collections", "list", "--vendor", "pgdg");
        assertThat(list.out()).contains(key).contains("postgresql").contains("yes");
        var listJson = cli.run("docs", "collections", "list", "--json");
        assertThat(listJson.out()).contains("\"next_cursor\"");
        assertThat(cli.run("docs", "collections", "list", "--limit", "501").exitCode()).isEqualTo(2);
        var updated = cli.run("docs", "collections", "update", key, "--description", "PG manual v17", "--product",
                "postgresql,pgbouncer");
        assertThat(updated.exitCode()).as(updated.toString()).isZero();
        assertThat(cli.run("docs", "collections", "probe", key).out()).contains("backend answered");

        var search = cli.run("docs", "search", "promote the standby", "--collection", key, "--product", "postgresql",
                "--version", "17");
        assertThat(search.exitCode()).as(search.toString()).isZero();
        assertThat(search.out()).contains("1. [" + key + "] Failover").contains("https://docs.example.com/pg/failover");
        assertThat(corpus.last("/pg/search").body().path("filters").path("version").asText()).isEqualTo("17");
        var ask = cli.run("docs", "ask", "how do I promote the standby during failover", "--collection", key);
        assertThat(ask.out()).contains("pg_ctl promote").contains("[1]").contains("pg-failover-1");
        assertThat(cli.run("docs", "search", "standby").exitCode()).as("--collection is required").isEqualTo(2);
        assertThat(cli.run("docs", "search", "standby", "--collection", key, "--limit", "51").exitCode()).isEqualTo(2);

        String global = "cglob-" + suffix;
        create(platform, global, corpus.url("/k8s/search"), ", \"global\": true");
        var denied = cli.run("docs", "search", "certificate", "--collection", global);
        assertThat(denied.exitCode()).as(denied.toString()).isEqualTo(3);
        assertThat(denied.err()).contains("capability_required").contains("svc-docs:" + global);
        CliRunner platformCli = new CliRunner(TempDirs.create("svc-docs-cli-p")).env("SVC_TOKEN", platform)
                .env("SVC_BACKPLANE", kernel.url()).env("SVC_INSECURE_ALLOW_HTTP", "1");
        var grant = platformCli.run("docs", "collections", "grant", global, "--tenant", tenant.toString());
        assertThat(grant.exitCode()).as(grant.toString()).isZero();
        assertThat(cli.run("docs", "search", "certificate", "--collection", global).out()).contains("k8s-certs-1",
                "Certificate rotation");
        assertThat(platformCli.run("docs", "collections", "grants", global).out()).contains(tenant.toString());
        assertThat(platformCli.run("docs", "collections", "revoke", global, "--tenant", tenant.toString()).exitCode())
                .isZero();
        assertThat(platformCli.run("docs", "collections", "grant", global).exitCode()).as("--tenant needed").isEqualTo(2);

        assertThat(cli.run("docs", "collections", "delete", key).exitCode()).as("enabled: refused").isEqualTo(1);
        assertThat(cli.run("docs", "collections", "disable", key).exitCode()).isZero();
        assertThat(cli.run("docs", "collections", "enable", key).exitCode()).isZero();
        cli.run("docs", "collections", "disable", key);
        var deleted = cli.run("docs", "collections", "delete", key);
        assertThat(deleted.exitCode()).as(deleted.toString()).isZero();
        assertThat(cli.run("docs", "collections", "list").out()).doesNotContain(key);
    }

    @Test
    void theThreeMcpTools() {
        String pg = "mcp-" + suffix;
        String hidden = "mcph-" + suffix;
        create(admin, pg, corpus.url("/pg/search"), ", \"when_to_use\": \"PostgreSQL questions\"");
        create(admin, hidden, corpus.url("/pg/search"), "");
        post(COLLECTIONS + "/" + hidden + "/disable", admin, null);
        create(platform, "mcpg-" + suffix, corpus.url("/k8s/search"), ", \"global\": true");
        String token = issuer.mcpToken("agent-" + tenant, tenant, "read_only");

        JsonNode tools = mcp(token, "tools/list", "{}").path("result").path("tools");
        assertThat(tools.findValuesAsText("name")).contains("search_docs", "ask_docs", "list_doc_collections");
        for (JsonNode t : tools) {
            if (t.path("name").asText().endsWith("_docs")) {
                assertThat(t.path("inputSchema").path("required").toString()).contains("query").contains("collection");
            }
        }

        JsonNode listed = mcp(token, "tools/call", "{\"name\": \"list_doc_collections\", \"arguments\": {}}")
                .path("result").path("structuredContent").path("collections");
        assertThat(listed.findValuesAsText("key")).as("only what the caller may search").containsExactly(pg);
        assertThat(listed.get(0).path("when_to_use").asText()).isEqualTo("PostgreSQL questions");

        JsonNode missing = mcp(token, "tools/call", "{\"name\": \"search_docs\", \"arguments\": {\"query\": \"failover\"}}");
        assertThat(missing.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(missing.path("error").path("data").path("reason").asText()).isEqualTo("collection_required");
        assertThat(mcp(token, "tools/call", "{\"name\": \"ask_docs\", \"arguments\": {\"query\": \"failover\"}}")
                .path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(mcp(token, "tools/call", "{\"name\": \"search_docs\", \"arguments\": {\"query\": \"failover\", "
                + "\"collection\": \"nope-" + suffix + "\"}}").path("error").path("data").path("reason").asText())
                .isEqualTo("collection_not_found");

        JsonNode found = mcp(token, "tools/call", "{\"name\": \"search_docs\", \"arguments\": {\"query\": \"promote "
                + "standby\", \"collection\": \"" + pg + "\"}}").path("result");
        assertThat(found.path("isError").asBoolean()).isFalse();
        assertThat(found.path("structuredContent").path("chunks").get(0).path("citation").path("chunk_id").asText())
                .isEqualTo("pg-failover-1");
        JsonNode answer = mcp(token, "tools/call", "{\"name\": \"ask_docs\", \"arguments\": {\"query\": \"how do I "
                + "promote the standby\", \"collection\": [\"" + pg + "\"]}}").path("result").path("structuredContent");
        assertThat(answer.path("answer").asText()).contains("[1]");
        assertThat(answer.path("sources").get(0).path("chunk_id").asText()).isEqualTo("pg-failover-1");
        JsonNode denied = mcp(token, "tools/call", "{\"name\": \"search_docs\", \"arguments\": {\"query\": \"x\", "
                + "\"collection\": \"mcpg-" + suffix + "\"}}").path("result");
        assertThat(denied.path("isError").asBoolean()).isTrue();
        assertThat(denied.path("structuredContent").path("error").asText()).isEqualTo("capability_required");

        Jdbc jdbc = new Jdbc(kernel.kernel().database().dataSource());
        assertThat(jdbc.query("SELECT op_id || ' ' || (extras->>'surface') FROM audit_rows WHERE tenant_id = ? AND "
                + "(op_id LIKE 'svc.docs.%' OR op_id IN ('mcp.search_docs', 'mcp.ask_docs')) ORDER BY occurred_at",
                rs -> rs.getString(1), tenant)).as("one svc.docs row per query, no duplicate mcp.* row")
                .containsExactly("svc.docs.search mcp", "svc.docs.ask mcp", "svc.docs.search mcp", "svc.docs.search mcp",
                        "svc.docs.ask mcp", "svc.docs.search mcp");
    }

    private JsonNode mcp(String token, String method, String params) {
        var r = kernel.send("POST", "/mcp", token, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"" + method
                + "\", \"params\": " + params + "}", Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }
}
