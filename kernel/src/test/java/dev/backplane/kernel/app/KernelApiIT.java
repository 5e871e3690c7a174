package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The kernel over real HTTP, with tokens from a local issuer: envelope, request ids, identity, roles, tenancy. */
class KernelApiIT {

    private static final String POLICY = "/api/v1/tenants/current/flight-recorder-policy";
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static Path data;
    private final UUID tenant = UUID.randomUUID();

    @BeforeAll
    static void start() throws Exception {
        data = TempDirs.create("svc-kernel-it");
        issuer = new TestIssuer();
        kernel = TestKernel.start(data, issuer.kernelSettings());
    }

    @AfterAll
    static void stop() {
        kernel.close();
        issuer.close();
    }

    private static void assertEnvelope(TestKernel.Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.header("Content-Type")).hasValue("application/json");
        JsonNode j = r.json();
        assertThat(j.path("error").asText()).isEqualTo(code);
        assertThat(j.path("extras").path("error_code").asText()).isEqualTo(code);
        assertThat(j.path("message").asText()).isNotBlank();
        assertThat(r.body()).doesNotContain("Exception").doesNotContain("<html");
    }

    @Test
    void healthReportsTheDatabase() {
        var r = kernel.get("/health", null);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("checks").path("database").asText()).isEqualTo("UP");
        assertThat(kernel.get("/health/live", null).json().path("status").asText()).isEqualTo("UP");
        assertThat(kernel.get("/health/ready", null).status()).isEqualTo(200);
    }

    @Test
    void everyResponseCarriesARequestIdAndAWellFormedOneIsEchoed() {
        var generated = kernel.get("/health", null);
        assertThat(generated.header("X-Request-Id")).hasValueSatisfying(id -> assertThat(id).hasSize(36));
        var echoed = kernel.send("GET", "/nope", null, null, Map.of("X-Request-Id", "trace-123"));
        assertThat(echoed.header("X-Request-Id")).hasValue("trace-123");
        var refused = kernel.send("GET", "/health", null, null, Map.of("X-Request-Id", "bad id with spaces"));
        assertThat(refused.header("X-Request-Id")).hasValueSatisfying(id -> assertThat(id).isNotEqualTo("bad id with spaces"));
    }

    /**
     * Issue 46, version negotiation, the backplane's side: every /api/ answer says its API level and version, info
     * too; a client of another major is refused before any handler runs, with the fix; another minor is served; a
     * client that says nothing (curl) is served as always. The CLI sends its level and shows both sides.
     */
    @Test
    void everyApiAnswerSaysItsLevelAndAClientOfAnotherMajorIsRefusedWithTheFix() {
        var info = kernel.get("/api/v1/info", null);
        String level = info.json().path("api_level").asText();
        assertThat(level).matches("\\d+\\.\\d+");
        assertThat(info.header("Svc-Api-Level")).hasValue(level);
        assertThat(info.header("Svc-Version")).hasValue(info.json().path("version").asText());
        String operator = issuer.token("ada", tenant, "operator");
        assertThat(kernel.get("/api/v1/whoami", operator).header("Svc-Api-Level")).hasValue(level);
        assertThat(kernel.get("/health", null).header("Svc-Api-Level")).as("only the API says it").isEmpty();

        int major = Integer.parseInt(level.substring(0, level.indexOf('.')));
        var refused = kernel.send("GET", "/api/v1/whoami", operator, null, Map.of("Svc-Api-Level", (major + 1) + ".0",
                "User-Agent", "svc-cli/9.0.0"));
        assertEnvelope(refused, 400, "incompatible_client");
        assertThat(refused.json().path("message").asText()).contains("svc-cli/9.0.0 speaks API level " + (major + 1)
                + ".0").contains("install the svc CLI of version " + info.json().path("version").asText());
        assertThat(refused.json().path("extras").path("api_level").asText()).isEqualTo(level);
        assertEnvelope(kernel.send("GET", "/api/v1/info", null, null, Map.of("Svc-Api-Level", "one")), 400,
                "incompatible_client");
        assertThat(kernel.send("GET", "/api/v1/whoami", operator, null, Map.of("Svc-Api-Level", major + ".999"))
                .status()).as("another minor is served").isEqualTo(200);

        var version = kernel.cli(operator).run("version");
        assertThat(version.exitCode()).as(version.toString()).isZero();
        assertThat(version.out()).contains("(API level " + level + ",").contains("backplane " + kernel.url()
                + ": svc backplane " + info.json().path("version").asText() + " (API level " + level);
        assertThat(version.err()).as("the same level: no note").isEmpty();
    }

    @Test
    void unknownRoutesAndWrongMethodsGetTheEnvelope() {
        assertEnvelope(kernel.get("/api/v1/nothing-here", null), 404, "not_found");
        assertEnvelope(kernel.send("DELETE", "/api/v1/whoami", null, null, Map.of()), 404, "not_found");
    }

    @Test
    void aMalformedHttpRequestGetsAJsonError() throws Exception {
        int port = kernel.kernel().port();
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            out.write("GARBAGE /\u0001 HTTP/9.9\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(response).startsWith("HTTP/1.1 4");
            assertThat(response).contains("application/json").contains("\"error_code\"");
        }
    }

    @Test
    void missingOrBadTokensAre401WithAChallenge() {
        var none = kernel.get("/api/v1/whoami", null);
        assertEnvelope(none, 401, "unauthorized");
        assertThat(none.header("WWW-Authenticate")).hasValue("Bearer realm=\"svc\"");

        var basic = kernel.send("GET", "/api/v1/whoami", null, null, Map.of("Authorization", "Basic YTpi"));
        assertEnvelope(basic, 401, "invalid_request");

        var expired = kernel.get("/api/v1/whoami", issuer.token(c -> c.claim("tenant_id", tenant.toString())
                .claim("tenant_role", "operator").expirationTime(Date.from(Instant.now().minusSeconds(600)))));
        assertEnvelope(expired, 401, "invalid_token");
        assertThat(expired.header("WWW-Authenticate")).hasValueSatisfying(h ->
                assertThat(h).contains("error=\"invalid_token\"").contains("expired"));

        String good = issuer.token("u", tenant, "operator");
        String[] parts = good.split("\\.");
        String none2 = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes()) + "."
                + parts[1] + ".";
        assertEnvelope(kernel.get("/api/v1/whoami", none2), 401, "invalid_token");
        assertEnvelope(kernel.get("/api/v1/whoami", parts[0] + "." + parts[1] + ".AAAA" + parts[2].substring(4)), 401,
                "invalid_token");
        assertEnvelope(kernel.get("/api/v1/whoami", issuer.token(c -> c.audience("other")
                .claim("tenant_id", tenant.toString()).claim("tenant_role", "operator"))), 401, "invalid_token");
        assertEnvelope(kernel.get("/api/v1/whoami", issuer.token(c -> c.issuer("https://other.test")
                .claim("tenant_id", tenant.toString()).claim("tenant_role", "operator"))), 401, "invalid_token");
    }

    @Test
    void tokensWithoutTenantClaimsAreRefused() {
        assertEnvelope(kernel.get("/api/v1/whoami", issuer.token(c -> c.claim("tenant_role", "operator"))), 401,
                "invalid_token");
        assertEnvelope(kernel.get("/api/v1/whoami", issuer.token(c -> c.claim("tenant_id", tenant.toString()))), 401,
                "invalid_token");
        assertEnvelope(kernel.get("/api/v1/whoami", issuer.token(c -> c.claim("tenant_id", "not-a-uuid")
                .claim("tenant_role", "operator"))), 401, "invalid_token");
        assertEnvelope(kernel.get("/api/v1/whoami", issuer.token(c -> c.claim("tenant_id", tenant.toString())
                .claim("tenant_role", "superuser"))), 401, "invalid_token");
    }

    @Test
    void whoamiDescribesTheCaller() {
        var r = kernel.get("/api/v1/whoami", issuer.token(c -> c.subject("sub-9").claim("preferred_username", "alice")
                .claim("tenant_id", tenant.toString()).claim("tenant_role", "operator")));
        assertThat(r.status()).isEqualTo(200);
        JsonNode j = r.json();
        assertThat(j.path("sub").asText()).isEqualTo("sub-9");
        assertThat(j.path("username").asText()).isEqualTo("alice");
        assertThat(j.path("tenant_id").asText()).isEqualTo(tenant.toString());
        assertThat(j.path("tenant_role").asText()).isEqualTo("operator");
        assertThat(j.path("platform_admin").asBoolean()).isFalse();
        assertThat(j.path("principal_kind").asText()).isEqualTo("human");
    }

    @Test
    void onlyAPlatformAdminMayActOnAnotherTenant() {
        UUID other = UUID.randomUUID();
        // the other tenant becomes known when one of its users calls
        assertThat(kernel.get("/api/v1/whoami", issuer.token("o", other, "read_only")).status()).isEqualTo(200);

        String operator = issuer.token("op", tenant, "tenant_admin");
        assertThat(kernel.send("GET", "/api/v1/whoami", operator, null, Map.of("X-Svc-Tenant", tenant.toString()))
                .status()).as("naming one's own tenant is fine").isEqualTo(200);
        assertEnvelope(kernel.send("GET", "/api/v1/whoami", operator, null, Map.of("X-Svc-Tenant", other.toString())),
                403, "insufficient_role");

        String platform = issuer.platformAdminToken("root", tenant);
        var acting = kernel.send("GET", "/api/v1/whoami", platform, null, Map.of("X-Svc-Tenant", other.toString()));
        assertThat(acting.status()).isEqualTo(200);
        assertThat(acting.json().path("tenant_id").asText()).isEqualTo(other.toString());
        assertThat(acting.json().path("home_tenant_id").asText()).isEqualTo(tenant.toString());

        var patched = kernel.send("PATCH", POLICY, platform, "{\"enabled\": true}", Map.of("X-Svc-Tenant", other.toString()));
        assertThat(patched.status()).as("platform_admin is tenant_admin in the tenant it acts on").isEqualTo(200);
        assertThat(kernel.get(POLICY, issuer.token("o", other, "read_only")).json().path("enabled").asBoolean()).isTrue();

        assertEnvelope(kernel.send("GET", "/api/v1/whoami", platform, null,
                Map.of("X-Svc-Tenant", UUID.randomUUID().toString())), 404, "tenant_not_found");
        assertEnvelope(kernel.send("GET", "/api/v1/whoami", platform, null, Map.of("X-Svc-Tenant", "nope")), 400,
                "invalid_tenant");
    }

    @Test
    void roleShortfallIs403AndTenantAdminMayChangePolicy() {
        String reader = issuer.token("r", tenant, "read_only");
        String operator = issuer.token("op", tenant, "operator");
        String admin = issuer.token("adm", tenant, "tenant_admin");

        var shown = kernel.get(POLICY, reader);
        assertThat(shown.status()).isEqualTo(200);
        assertThat(shown.json().path("enabled").asBoolean()).isFalse();
        assertThat(shown.json().path("agent_readable").asText()).isEqualTo("inherit");

        var denied = kernel.send("PATCH", POLICY, operator, "{\"enabled\": true}", Map.of());
        assertEnvelope(denied, 403, "insufficient_role");
        assertThat(denied.json().path("extras").path("required_role").asText()).isEqualTo("tenant_admin");
        assertEnvelope(kernel.send("PATCH", POLICY, reader, "{\"enabled\": true}", Map.of()), 403, "insufficient_role");

        var set = kernel.send("PATCH", POLICY, admin, "{\"enabled\": true, \"agent_readable\": \"false\", "
                + "\"retention_days\": 30}", Map.of());
        assertThat(set.status()).as(set.body()).isEqualTo(200);
        assertThat(set.json().path("retention_days").asInt()).isEqualTo(30);
        var cleared = kernel.send("PATCH", POLICY, admin, "{\"clear_retention\": true}", Map.of());
        assertThat(cleared.json().path("retention_days").isNull()).isTrue();
        assertThat(cleared.json().path("enabled").asBoolean()).as("sparse: untouched fields stay").isTrue();

        UUID stranger = UUID.randomUUID();
        assertThat(kernel.get(POLICY, issuer.token("s", stranger, "read_only")).json().path("enabled").asBoolean())
                .as("another tenant does not see this tenant's policy").isFalse();
    }

    @Test
    void badPolicyInputIsAClearErrorAndChangesNothing() {
        String admin = issuer.token("adm", tenant, "tenant_admin");
        assertEnvelope(kernel.send("PATCH", POLICY, admin, "{\"retention_days\": 0}", Map.of()), 422, "invalid_policy");
        assertEnvelope(kernel.send("PATCH", POLICY, admin, "{\"retention_days\": 366}", Map.of()), 422, "invalid_policy");
        assertEnvelope(kernel.send("PATCH", POLICY, admin, "{\"agent_readable\": \"maybe\"}", Map.of()), 422,
                "invalid_policy");
        assertEnvelope(kernel.send("PATCH", POLICY, admin, "{\"retention_days\": 5, \"clear_retention\": true}", Map.of()),
                422, "invalid_policy");
        assertEnvelope(kernel.send("PATCH", POLICY, admin, "{}", Map.of()), 422, "invalid_policy");
        var unknown = kernel.send("PATCH", POLICY, admin, "{\"retention\": 5}", Map.of());
        assertEnvelope(unknown, 422, "invalid_request");
        assertThat(unknown.json().path("extras").path("known_fields").toString()).contains("retention_days");
        assertEnvelope(kernel.send("PATCH", POLICY, admin, "{not json", Map.of()), 400, "invalid_json");
        assertEnvelope(kernel.send("PATCH", POLICY, admin, "{\"enabled\": \"yes please\"}", Map.of()), 400, "invalid_json");
        assertEnvelope(kernel.send("PATCH", POLICY, admin, null, Map.of()), 400, "invalid_request");
        assertThat(kernel.get(POLICY, admin).json().path("updated_at").isNull()).as("nothing was written").isTrue();
    }

    @Test
    void theOpenApiDocumentMatchesTheRoutesAndTheCliCalls() throws Exception {
        var r = kernel.get("/openapi.yaml", null);
        assertThat(r.status()).isEqualTo(200);
        JsonNode doc = new ObjectMapper(new YAMLFactory()).readTree(r.body());
        Set<String> documented = new TreeSet<>();
        Map<String, String> documentedRoles = new java.util.TreeMap<>();
        doc.path("paths").properties().forEach(p -> p.getValue().properties().forEach(m -> {
            String key = m.getKey().toUpperCase() + " " + p.getKey();
            documented.add(key);
            documentedRoles.put(key, m.getValue().path("x-svc-role").asText("public")
                    + (m.getValue().path("x-svc-agents").asText().equals("refused") ? " (no agents)" : ""));
        }));
        Set<String> served = new TreeSet<>();
        Map<String, String> servedRoles = new java.util.TreeMap<>();
        for (ApiRoutes.Route route : kernel.kernel().api().routes()) {
            String key = route.method() + " " + route.path();
            served.add(key);
            servedRoles.put(key, route.role().map(role -> role.wireName()).orElse("public")
                    + (route.callers() == ApiRoutes.Callers.NO_AGENTS ? " (no agents)" : ""));
        }
        assertThat(documented).as("OpenAPI document vs declared routes").isEqualTo(served);
        assertThat(documentedRoles).as("x-svc-role and x-svc-agents per route").isEqualTo(servedRoles);
        assertThat(documented).as("every call the CLI makes is documented").containsAll(ApiPaths.CALLS);

        // a usable contract for client generators: every operation has a unique operationId and declared tags
        Set<String> declaredTags = new TreeSet<>();
        doc.path("tags").forEach(t -> declaredTags.add(t.path("name").asText()));
        Map<String, String> ids = new java.util.TreeMap<>();
        doc.path("paths").properties().forEach(p -> p.getValue().properties().forEach(m -> {
            String key = m.getKey().toUpperCase() + " " + p.getKey();
            String id = m.getValue().path("operationId").asText("");
            assertThat(id).as("operationId of " + key).matches("[a-z][A-Za-z0-9]*");
            assertThat(ids.put(id, key)).as("operationId " + id + " is unique").isNull();
            assertThat(m.getValue().path("tags")).as("tags of " + key).isNotEmpty();
            m.getValue().path("tags").forEach(t -> assertThat(declaredTags).as("tag of " + key).contains(t.asText()));
        }));
        assertThat(ids).hasSameSizeAs(documented);
        var json = kernel.get("/openapi.json", null);
        assertThat(json.status()).isEqualTo(200);
        assertThat(json.header("Content-Type")).hasValueSatisfying(h -> assertThat(h).startsWith("application/json"));
        assertThat(new ObjectMapper().readTree(json.body())).as("the same document as JSON").isEqualTo(doc);
    }

    /**
     * A JSON body over the 1 MiB cap is refused with 413 whether its length is declared (refused before it is read)
     * or it is streamed in chunks (never read past the cap); an empty one is 400; one of declared length within the
     * cap, or streamed, is read whole and reaches the handler.
     */
    @Test
    void requestBodiesAreCappedWhetherDeclaredOrStreamed() throws Exception {
        String op = issuer.token("op-" + tenant, tenant, "operator");
        java.net.URI call = java.net.URI.create(kernel.url() + "/api/v1/operations/call");
        byte[] huge = ("{\"connector_id\": \"" + "x".repeat(1_100_000) + "\"}").getBytes(StandardCharsets.UTF_8);
        byte[] small = "{\"connector_id\": \"nope-1.x\", \"op_id\": \"nope\", \"target\": \"t\"}"
                .getBytes(StandardCharsets.UTF_8);
        java.util.function.Function<java.net.http.HttpRequest.BodyPublisher, java.net.http.HttpRequest> post = body ->
                java.net.http.HttpRequest.newBuilder(call).header("Authorization", "Bearer " + op)
                        .header("Content-Type", "application/json").POST(body).build();
        try (java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
            java.util.function.Function<java.net.http.HttpRequest, TestKernel.Response> send = request -> {
                try {
                    var r = http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
                    return new TestKernel.Response(r.statusCode(), r.headers().map(), r.body());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
            assertEnvelope(send.apply(post.apply(java.net.http.HttpRequest.BodyPublishers.ofByteArray(huge))), 413,
                    "body_too_large");
            assertEnvelope(send.apply(post.apply(java.net.http.HttpRequest.BodyPublishers.ofInputStream(
                    () -> new java.io.ByteArrayInputStream(huge)))), 413, "body_too_large");
            TestKernel.Response empty = send.apply(post.apply(java.net.http.HttpRequest.BodyPublishers.noBody()));
            assertEnvelope(empty, 400, "invalid_request");
            assertThat(empty.json().path("message").asText()).isEqualTo("a JSON request body is required");
            // within the cap, declared or streamed: the handler reads it and answers for the unknown connector
            for (var body : java.util.List.of(java.net.http.HttpRequest.BodyPublishers.ofByteArray(small),
                    java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(small)))) {
                assertEnvelope(send.apply(post.apply(body)), 404, "unknown_connector");
            }
        }
    }
}
