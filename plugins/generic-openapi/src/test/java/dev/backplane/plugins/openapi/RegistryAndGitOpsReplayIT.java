package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The container-registry (Harbor v2) and GitOps-controller (Argo CD) families as ingested vendor
 * specs: both specs from {@code ../shared/specs/} (read in place) are ingested by catalog name with
 * the auth scheme the shipped catalog index gives them, and driven through a real kernel against a
 * loopback server replaying hand-built vendor answers. Every answer the replay server gives is first
 * checked against the vendor spec's own response schema (a contract check), and every write it
 * receives against the spec's request-body schema, so the fixtures cannot drift from the real API.
 */
class RegistryAndGitOpsReplayIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HARBOR = "harbor-2.x";
    private static final String ARGOCD = "argocd-3.x";
    private static final String PASSWORD = "vendor-pw-" + UUID.randomUUID();
    private static final String ARGO_TOKEN = "argo-session-" + UUID.randomUUID();
    private static final UUID TENANT = UUID.randomUUID();
    private static Path work;
    private static JsonNode harborSpec;
    private static JsonNode argoSpec;
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static HttpServer vendor;
    private static final List<String> writes = new CopyOnWriteArrayList<>();
    private static String admin;
    private static String admin2;
    private static String operator;

    private static Path spec(String file) {
        Path p = Path.of(System.getProperty("svc.shared.dir", "../../../shared")).resolve("specs").resolve(file)
                .toAbsolutePath().normalize();
        return Files.isRegularFile(p) ? p : null;
    }

    @BeforeAll
    static void start() throws Exception {
        Path harbor = spec("harbor-v2.0-swagger.yaml");
        Path argo = spec("argocd-swagger.json");
        Assumptions.assumeTrue(harbor != null && argo != null, "../shared/specs is not beside the repository; this "
                + "test reads the vendor specs in place");
        harborSpec = new YAMLMapper().readTree(harbor.toFile());
        argoSpec = JSON.readTree(argo.toFile());
        work = Files.createTempDirectory("svc-replay-it");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        Files.copy(Path.of(System.getProperty("generic-openapi.plugin.jar")), plugins.resolve("generic-openapi.jar"));
        // the shipped index's entries for these two, pointing at the specs in place instead of their pinned URLs
        JsonNode shipped = JSON.readTree(Path.of("../../plugin-repo/catalog-index.json").toFile());
        List<JsonNode> entries = new ArrayList<>();
        for (JsonNode c : shipped.path("connectors")) {
            String product = c.path("product").asText();
            if (product.equals("harbor") || product.equals("argocd")) {
                ((ObjectNode) c).set("specs", JSON.valueToTree(List.of((product.equals("harbor") ? harbor : argo)
                        .toString())));
                entries.add(c);
            }
        }
        assertThat(entries).as("the shipped index has both families").hasSize(2);
        Files.writeString(plugins.resolve("catalog-index.json"), JSON.writeValueAsString(Map.of("connectors", entries)));
        vendor = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        vendor.createContext("/", RegistryAndGitOpsReplayIT::answer);
        vendor.start();
        issuer = new TestIssuer();
        kernel = TestKernel.start(work.resolve("data"), TestKernel.settings(issuer, plugins));
        admin = issuer.token("admin-1", TENANT, "tenant_admin");
        admin2 = issuer.token("admin-2", TENANT, "tenant_admin");
        operator = issuer.token("operator-1", TENANT, "operator");
        String platformAdmin = issuer.platformAdminToken("platform-1", TENANT);
        CliRunner cli = new CliRunner(work.resolve("cli")).env("SVC_TOKEN", platformAdmin)
                .env("SVC_BACKPLANE", kernel.url()).env("SVC_INSECURE_ALLOW_HTTP", "1");
        for (String[] c : List.of(new String[] {"harbor/2.x", HARBOR}, new String[] {"argocd/3.x", ARGOCD})) {
            var r = cli.run("connector", "ingest", "--catalog", c[0]);
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).contains("ingested " + c[1]);
            assertThat(r.out()).as("every curated group exists in the spec").doesNotContain("curates group");
        }
    }

    @AfterAll
    static void stop() {
        if (kernel != null) {
            kernel.close();
            issuer.close();
        }
        if (vendor != null) {
            vendor.stop(0);
        }
    }

    // ---- the replay server ----

    private static final String PROJECTS = """
            [{"project_id": 1, "name": "library", "owner_name": "admin", "repo_count": 2,
              "creation_time": "2026-11-01T10:00:00.000Z", "update_time": "2026-11-02T10:00:00.000Z",
              "metadata": {"public": "true", "auto_scan": "true"}}]""";
    private static final String REPOSITORIES = """
            [{"id": 7, "project_id": 1, "name": "library/nginx", "artifact_count": 3, "pull_count": 42,
              "creation_time": "2026-11-01T10:00:00.000Z", "update_time": "2026-11-20T08:00:00.000Z"}]""";
    private static final String SYSTEMINFO = """
            {"harbor_version": "v2.13.1-1234abcd", "auth_mode": "db_auth", "primary_auth_mode": false,
             "self_registration": false, "has_ca_root": false, "read_only": false}""";
    private static final String APPLICATIONS = """
            {"metadata": {"resourceVersion": "123"}, "items": [{"metadata": {"name": "guestbook", "namespace": "argocd"},
              "spec": {"project": "default", "source": {"repoURL": "https://github.com/argoproj/argocd-example-apps",
                "path": "guestbook", "targetRevision": "HEAD"},
                "destination": {"server": "https://kubernetes.default.svc", "namespace": "default"}},
              "status": {"sync": {"status": "OutOfSync", "revision": "4f7a2c1"}, "health": {"status": "Healthy"}}}]}""";
    private static final String VERSION = """
            {"Version": "v3.1.8+becb020", "BuildDate": "2026-10-01T00:00:00Z", "GoVersion": "go1.24.6"}""";

    private static void answer(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getPath();
        String method = x.getRequestMethod();
        byte[] in = x.getRequestBody().readAllBytes();
        String auth = String.valueOf(x.getRequestHeaders().getFirst("Authorization"));
        try {
            if (path.startsWith("/api/v2.0/")) {
                if (!auth.equals("Basic " + Base64.getEncoder().encodeToString(("admin:" + PASSWORD)
                        .getBytes(StandardCharsets.UTF_8)))) {
                    reply(x, 401, "{\"errors\": [{\"code\": \"UNAUTHORIZED\", \"message\": \"unauthorized\"}]}");
                    return;
                }
                switch (method + " " + path) {
                    case "GET /api/v2.0/projects" -> reply(x, 200, harbor("/projects", "get", PROJECTS));
                    case "GET /api/v2.0/projects/library/repositories" -> reply(x, 200,
                            harbor("/projects/{project_name}/repositories", "get", REPOSITORIES));
                    case "GET /api/v2.0/systeminfo" -> reply(x, 200, harbor("/systeminfo", "get", SYSTEMINFO));
                    case "POST /api/v2.0/projects" -> {
                        requestContract(harborSpec, "/projects", "post", in);
                        writes.add("harbor " + new String(in, StandardCharsets.UTF_8));
                        x.getResponseHeaders().add("Location", "/api/v2.0/projects/2");
                        reply(x, 201, "");
                    }
                    default -> reply(x, 404, "{\"errors\": [{\"code\": \"NOT_FOUND\", \"message\": \"no route\"}]}");
                }
                return;
            }
            if (method.equals("POST") && path.equals("/api/v1/session")) {
                requestContract(argoSpec, "/api/v1/session", "post", in);
                JsonNode login = JSON.readTree(in);
                boolean ok = login.path("username").asText().equals("admin")
                        && login.path("password").asText().equals(PASSWORD);
                reply(x, ok ? 200 : 401, ok ? argo("/api/v1/session", "post", "{\"token\": \"" + ARGO_TOKEN + "\"}")
                        : "{\"error\": \"Invalid username or password\", \"code\": 16}");
                return;
            }
            if (!auth.equals("Bearer " + ARGO_TOKEN)) {
                reply(x, 401, "{\"error\": \"no session information\", \"code\": 16}");
                return;
            }
            switch (method + " " + path) {
                case "GET /api/v1/applications" -> reply(x, 200, argo("/api/v1/applications", "get", APPLICATIONS));
                case "GET /api/version" -> reply(x, 200, argo("/api/version", "get", VERSION));
                case "POST /api/v1/applications/guestbook/sync" -> {
                    requestContract(argoSpec, "/api/v1/applications/{name}/sync", "post", in);
                    writes.add("argocd " + new String(in, StandardCharsets.UTF_8));
                    String app = JSON.readTree(APPLICATIONS).path("items").get(0).toString();
                    reply(x, 200, argo("/api/v1/applications/{name}/sync", "post", app));
                }
                default -> reply(x, 404, "{\"error\": \"not found\", \"code\": 5}");
            }
        } catch (AssertionError e) {
            reply(x, 599, "{\"contract_violation\": " + JSON.writeValueAsString(e.getMessage()) + "}");
        }
    }

    private static void reply(HttpExchange x, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            x.getResponseBody().write(b);
        }
        x.close();
    }

    private static String harbor(String path, String method, String body) throws IOException {
        return contract(harborSpec, path, method, body);
    }

    private static String argo(String path, String method, String body) throws IOException {
        return contract(argoSpec, path, method, body);
    }

    /** The body, after checking it against the spec's 200/201 response schema for that operation. */
    static String contract(JsonNode spec, String path, String method, String body) throws IOException {
        JsonNode responses = spec.path("paths").path(path).path(method).path("responses");
        JsonNode schema = responses.path("200").path("schema");
        if (schema.isMissingNode()) {
            schema = responses.path("201").path("schema");
        }
        assertThat(schema.isMissingNode()).as(method + " " + path + " has a response schema in the spec").isFalse();
        checkAgainst(spec, schema, JSON.readTree(body), "response of " + method + " " + path);
        return body;
    }

    /** Checks a request body against the spec's body parameter schema. */
    static void requestContract(JsonNode spec, String path, String method, byte[] body) throws IOException {
        for (JsonNode p : spec.path("paths").path(path).path(method).path("parameters")) {
            if (p.path("in").asText().equals("body")) {
                checkAgainst(spec, p.path("schema"), JSON.readTree(body), "request of " + method + " " + path);
                return;
            }
        }
        throw new AssertionError(method + " " + path + " has no body parameter in the spec");
    }

    private static void checkAgainst(JsonNode spec, JsonNode schema, JsonNode instance, String what) {
        ObjectNode root = schema.deepCopy();
        root.set("definitions", spec.path("definitions"));
        var errors = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4).getSchema(root).validate(instance);
        assertThat(errors).as(what + " matches the vendor spec").isEmpty();
    }

    // ---- the tests ----

    private static JsonNode call(String token, String connector, String opId, String target, Map<String, Object> params)
            throws Exception {
        var r = kernel.send("POST", "/api/v1/operations/call", token, JSON.writeValueAsString(Map.of(
                "connector_id", connector, "op_id", opId, "target", target, "params", params, "work_ref", "CHG-9")),
                Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).doesNotContain(PASSWORD).doesNotContain(ARGO_TOKEN).doesNotContain("contract_violation");
        return r.json();
    }

    private static void target(String name, String product, String password) {
        Map<String, Object> body = new HashMap<>(Map.of("name", name, "product", product, "host", "127.0.0.1",
                "port", vendor.getAddress().getPort(), "extras", Map.of("scheme", "http")));
        kernel.registerTarget(admin, body);
        kernel.stageSecret(admin, name, Map.of("username", "admin", "password", password));
    }

    private static String approve(JsonNode parked, String approver) {
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        var r = kernel.send("POST", "/api/v1/approvals/" + parked.path("extras").path("approval_request_id").asText()
                + "/approve", approver, "{}", Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    @Test
    void theContractCheckCatchesAFixtureThatDriftsFromTheSpec() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> contract(harborSpec, "/systeminfo", "get",
                "{\"primary_auth_mode\": \"yes\"}")).isInstanceOf(AssertionError.class).hasMessageContaining("boolean");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> contract(argoSpec, "/api/v1/applications", "get",
                "{\"items\": {\"not\": \"a list\"}}")).isInstanceOf(AssertionError.class);
    }

    @Test
    void harborReadsCreateAProjectOnApprovalAndRejectABadPassword() throws Exception {
        target("reg1", "harbor", PASSWORD);
        target("reg-bad", "harbor", "not-the-password-42");
        kernel.enableConnector(admin, HARBOR);

        var groups = kernel.get("/api/v1/connectors/" + HARBOR + "/groups", operator);
        assertThat(groups.body()).as("the index's curated groups replace the tag names").contains("Projects")
                .contains("Images and other artifacts");
        JsonNode projects = call(operator, HARBOR, "harbor.project.list_projects", "reg1", Map.of());
        assertThat(projects.path("status").asText()).as(projects.toString()).isEqualTo("ok");
        assertThat(projects.toString()).contains("library");
        JsonNode repos = call(operator, HARBOR, "harbor.repository.list_repositories", "reg1",
                Map.of("project_name", "library"));
        assertThat(repos.toString()).as(repos.toString()).contains("library/nginx");
        JsonNode info = call(operator, HARBOR, "harbor.systeminfo.get_system_info", "reg1", Map.of());
        assertThat(info.toString()).contains("v2.13.1");

        JsonNode rejected = call(operator, HARBOR, "harbor.project.list_projects", "reg-bad", Map.of());
        assertThat(rejected.path("extras").path("error_code").asText()).isEqualTo("connector_auth_failed");
        assertThat(rejected.toString()).doesNotContain("not-the-password-42");

        JsonNode denied = call(operator, HARBOR, "harbor.project.create_project", "reg1",
                Map.of("body", Map.of("project_name", "team-a")));
        assertThat(denied.path("status").asText()).as("writes stay default-deny after enable-reads").isEqualTo("denied");
        assertThat(kernel.send("PATCH", "/api/v1/connectors/" + HARBOR + "/operations/harbor.project.create_project",
                admin, "{\"is_enabled\": true}", Map.of()).status()).isEqualTo(200);
        int before = writes.size();
        JsonNode parked = call(operator, HARBOR, "harbor.project.create_project", "reg1",
                Map.of("body", Map.of("project_name", "team-a", "metadata", Map.of("public", "false"))));
        assertThat(writes).as("nothing sent while parked").hasSize(before);
        String released = approve(parked, admin2);
        assertThat(JSON.readTree(released).path("result").path("status").asText()).as(released).isEqualTo("ok");
        assertThat(writes).anyMatch(w -> w.startsWith("harbor ") && w.contains("\"project_name\":\"team-a\""));
        JsonNode badBody = call(operator, HARBOR, "harbor.project.create_project", "reg1",
                Map.of("body", Map.of("project_name", 42)));
        assertThat(badBody.path("extras").path("error_code").asText()).isEqualTo("invalid_params");
    }

    @Test
    void argoCdLogsInListsApplicationsAndSyncsOnApproval() throws Exception {
        target("gitops1", "argocd", PASSWORD);
        target("gitops-bad", "argocd", "not-the-password-42");
        kernel.enableConnector(admin, ARGOCD);

        JsonNode apps = call(operator, ARGOCD, "argocd.applicationservice.application_service_list", "gitops1", Map.of());
        assertThat(apps.path("status").asText()).as(apps.toString()).isEqualTo("ok");
        assertThat(apps.toString()).contains("guestbook").contains("OutOfSync");
        JsonNode version = call(operator, ARGOCD, "argocd.versionservice.version_service_version", "gitops1", Map.of());
        assertThat(version.toString()).contains("v3.1.8");

        JsonNode rejected = call(operator, ARGOCD, "argocd.versionservice.version_service_version", "gitops-bad",
                Map.of());
        assertThat(rejected.path("extras").path("error_code").asText()).as(rejected.toString())
                .isEqualTo("connector_auth_failed");

        assertThat(kernel.send("PATCH", "/api/v1/connectors/" + ARGOCD
                + "/operations/argocd.applicationservice.application_service_sync", admin, "{\"is_enabled\": true}",
                Map.of()).status()).isEqualTo(200);
        int before = writes.size();
        JsonNode parked = call(operator, ARGOCD, "argocd.applicationservice.application_service_sync", "gitops1",
                Map.of("name", "guestbook", "body", Map.of("revision", "HEAD", "prune", true)));
        assertThat(writes).as("nothing sent while parked").hasSize(before);
        String released = approve(parked, admin2);
        assertThat(JSON.readTree(released).path("result").path("status").asText()).as(released).isEqualTo("ok");
        assertThat(writes).anyMatch(w -> w.startsWith("argocd ") && w.contains("\"prune\":true"));

        var audit = kernel.get("/api/v1/audit?target=gitops1&limit=100", admin);
        assertThat(audit.body()).contains("application_service_sync").contains("CHG-9").doesNotContain(PASSWORD)
                .doesNotContain(ARGO_TOKEN);
    }
}
