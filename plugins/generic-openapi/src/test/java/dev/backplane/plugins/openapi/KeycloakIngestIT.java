package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KeycloakServer;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end against the real Keycloak of the test stack: its admin REST API spec (from
 * {@code ../shared/specs/}, read in place) is ingested through {@code svc connector ingest --catalog},
 * served by this plugin's jar loaded into a real kernel, with the admin credentials staged on a
 * target; reads are enabled and realms and users are listed through {@code svc operation call}, REST
 * and the per-family verbs ({@code svc keycloak ...}); creating a user parks for approval and happens
 * after a second admin approves; the audit log shows it all.
 */
class KeycloakIngestIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONNECTOR = "keycloak-23.x";
    private static Path work;
    private static KeycloakServer keycloak;
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static final UUID TENANT = UUID.randomUUID();
    private static String admin;
    private static String admin2;
    private static String platformAdmin;
    private static String operator;

    static Path keycloakSpec() {
        String shared = System.getProperty("svc.shared.dir", "../../../shared");
        Path spec = Path.of(shared).resolve("specs").resolve("keycloak-23.0.7-openapi.json").toAbsolutePath().normalize();
        return Files.isRegularFile(spec) ? spec : null;
    }

    @BeforeAll
    static void start() throws Exception {
        Path spec = keycloakSpec();
        Assumptions.assumeTrue(spec != null, "../shared/specs/keycloak-23.0.7-openapi.json is not beside the "
                + "repository; this end-to-end test reads the vendor spec in place");
        work = TempDirs.create("svc-keycloak-ingest-it");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        Files.copy(Path.of(System.getProperty("generic-openapi.plugin.jar")), plugins.resolve("generic-openapi.jar"));
        // the shipped entry's credential-read lists, so this end to end test runs the classification that ships
        JsonNode shipped = null;
        for (JsonNode c : JSON.readTree(Path.of("../../plugin-repo/catalog-index.json").toFile()).path("connectors")) {
            if (c.path("product").asText().equals("keycloak") && c.path("version").asText().equals("23.x")) {
                shipped = c;
            }
        }
        assertThat(shipped).as("plugin-repo/catalog-index.json has keycloak 23.x").isNotNull();
        Files.writeString(plugins.resolve("catalog-index.json"), JSON.writeValueAsString(Map.of("connectors", List.of(
                Map.of("product", "keycloak", "version", "23.x", "impl", "keycloak", "default_port", 8443,
                        "credential_reads", shipped.path("credential_reads"),
                        "not_credential_reads", shipped.path("not_credential_reads"),
                        "specs", List.of(spec.toString()), "spec_info_versions_compatible", List.of("1.x"),
                        "auth", Map.of("scheme", "session_login", "secret_fields", List.of("username", "password"),
                                "settings", Map.of("login_path", "/realms/master/protocol/openid-connect/token",
                                        "login_format", "form",
                                        "login_params", "grant_type=password&client_id=admin-cli")))))));
        keycloak = KeycloakServer.start(work);
        issuer = new TestIssuer();
        kernel = TestKernel.start(work.resolve("data"), TestKernel.settings(issuer, plugins));
        admin = issuer.token("admin-1", TENANT, "tenant_admin");
        admin2 = issuer.token("admin-2", TENANT, "tenant_admin");
        platformAdmin = issuer.platformAdminToken("platform-1", TENANT); // global connectors are platform_admin's
        operator = issuer.token("operator-1", TENANT, "operator");
    }

    @AfterAll
    static void stop() {
        if (kernel != null) {
            kernel.close();
            issuer.close();
            keycloak.close();
        }
    }

    private static CliRunner cli(String token) {
        return new CliRunner(work.resolve("cli-" + Math.abs(token.hashCode()))).env("SVC_TOKEN", token)
                .env("SVC_BACKPLANE", kernel.url()).env("SVC_INSECURE_ALLOW_HTTP", "1");
    }

    private static JsonNode call(String token, String opId, Map<String, Object> params) throws Exception {
        var r = kernel.send("POST", "/api/v1/operations/call", token, JSON.writeValueAsString(Map.of(
                "connector_id", CONNECTOR, "op_id", opId, "target", "kc", "params", params, "work_ref", "CHG-7")),
                Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).doesNotContain(keycloak.adminPassword());
        return r.json();
    }

    @Test
    void theKeycloakAdminApiIsIngestedReviewedAndDrivenThroughThePipeline() throws Exception {
        // ingest, catalog mode, through the CLI; the spec's info.version 1.0 is declared compatible with 23.x by the index
        var ingest = cli(platformAdmin).run("connector", "ingest", "--catalog", "keycloak/23.x");
        assertThat(ingest.exitCode()).as(ingest.toString()).isZero();
        assertThat(ingest.out()).contains("ingested " + CONNECTOR + " (global): 316 operations");

        // the Keycloak of the test stack as a target, its admin credentials staged
        URI kc = URI.create(keycloak.url());
        var t = kernel.send("POST", "/api/v1/targets", admin, JSON.writeValueAsString(Map.of("name", "kc",
                "product", "keycloak", "host", kc.getHost(), "port", kc.getPort(),
                "extras", Map.of("scheme", "http"))), Map.of());
        assertThat(t.status()).as(t.body()).isEqualTo(201);
        var s = kernel.send("PUT", "/api/v1/targets/kc/secret", admin, JSON.writeValueAsString(Map.of("fields",
                Map.of("username", KeycloakServer.ADMIN, "password", keycloak.adminPassword()))), Map.of());
        assertThat(s.status()).as(s.body()).isEqualTo(200);

        // staged and default-deny: nothing runs until reviewed
        JsonNode before = call(operator, "keycloak.realms_admin.get", Map.of());
        assertThat(before.path("status").asText()).as(before.toString()).isEqualTo("denied");
        var reads = cli(admin).run("connector", "enable-reads", CONNECTOR, "--confirm");
        assertThat(reads.exitCode()).as(reads.toString()).isZero();
        assertThat(cli(admin).run("connector", "enable", CONNECTOR, "--confirm").exitCode()).isZero();

        // list realms and users: REST, svc operation call, and the family verbs
        JsonNode realms = call(operator, "keycloak.realms_admin.get", Map.of("briefRepresentation", "true"));
        assertThat(realms.path("status").asText()).as(realms.toString()).isEqualTo("ok");
        assertThat(realms.path("result").findValuesAsText("realm")).contains("master");
        var users = cli(operator).run("operation", "call", CONNECTOR, "keycloak.users.get_users_by_realm",
                "--target", "kc", "--params", "{\"realm\": \"master\"}", "--json");
        assertThat(users.exitCode()).as(users.toString()).isZero();
        assertThat(users.out()).contains("\"username\" : \"" + KeycloakServer.ADMIN + "\"");
        var family = cli(operator).run("keycloak", "users", "get_users_by_realm", "--realm", "master", "--target", "kc");
        assertThat(family.exitCode()).as(family.toString()).isZero();
        assertThat(family.out()).contains(KeycloakServer.ADMIN);
        var preview = cli(operator).run("operation", "preview", CONNECTOR, "keycloak.users.post_users", "--target", "kc",
                "--params", "{\"realm\": \"master\", \"body\": {\"username\": \"x\", \"credentials\": [{\"type\": "
                        + "\"password\", \"value\": \"hunter2-secret\"}]}}", "--json");
        assertThat(preview.exitCode()).as(preview.toString()).isZero();
        assertThat(preview.out()).contains("/admin/realms/master/users").doesNotContain("hunter2-secret");

        // writes stay default-deny after enable-reads; enabling one still leaves it behind approval
        var denied = cli(admin).run("keycloak", "users", "post_users", "--realm", "master", "--body",
                "{\"username\": \"never\"}", "--target", "kc");
        assertThat(denied.out() + denied.err()).contains("default-deny");
        var edit = cli(admin).run("connector", "edit-op", CONNECTOR, "keycloak.users.post_users", "--enable");
        assertThat(edit.exitCode()).as(edit.toString()).isZero();

        // a write parks for approval and happens after a second admin approves
        var created = cli(admin).run("keycloak", "users", "post_users", "--realm", "master", "--body",
                "{\"username\": \"ingest-e2e\", \"enabled\": true}", "--target", "kc", "--work-ref", "CHG-7");
        assertThat(created.out() + created.err()).contains("parked for approval");
        var parked = kernel.get("/api/v1/approvals?status=pending", admin).json();
        String approvalId = null;
        for (JsonNode a : parked.path("items").isMissingNode() ? parked : parked.path("items")) {
            if (a.toString().contains("keycloak.users.post_users")) {
                approvalId = a.path("id").asText();
            }
        }
        assertThat(approvalId).as(parked.toString()).isNotNull();
        assertThat(keycloak.adminJson("/master/users?username=ingest-e2e&exact=true").size())
                .as("nothing happens before the approval").isZero();
        var self = kernel.send("POST", "/api/v1/approvals/" + approvalId + "/approve", admin, "{}", Map.of());
        assertThat(self.status()).as("four eyes: the requester cannot approve").isEqualTo(403);
        var approved = kernel.send("POST", "/api/v1/approvals/" + approvalId + "/approve", admin2,
                "{\"reason\": \"onboarding\"}", Map.of());
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        assertThat(approved.json().path("result").path("status").asText()).as(approved.body()).isEqualTo("ok");
        assertThat(keycloak.adminJson("/master/users?username=ingest-e2e&exact=true").size()).isEqualTo(1);

        // the audit log shows it all, never the password
        var audit = kernel.get("/api/v1/audit?target=kc&limit=100", admin);
        assertThat(audit.status()).as(audit.body()).isEqualTo(200);
        assertThat(audit.body()).contains("keycloak.realms_admin.get").contains("keycloak.users.get_users_by_realm")
                .contains("keycloak.users.post_users").contains("awaiting_approval").contains("CHG-7")
                .doesNotContain(keycloak.adminPassword());
    }

    @Test
    void aWrongAdminPasswordIsConnectorAuthFailed() throws Exception {
        cli(platformAdmin).run("connector", "ingest", "--catalog", "keycloak/23.x");
        URI kc = URI.create(keycloak.url());
        UUID other = UUID.randomUUID();
        String otherAdmin = issuer.token("other-admin", other, "tenant_admin");
        kernel.send("POST", "/api/v1/targets", otherAdmin, JSON.writeValueAsString(Map.of("name", "kc-bad",
                "product", "keycloak", "host", kc.getHost(), "port", kc.getPort(),
                "extras", Map.of("scheme", "http"))), Map.of());
        kernel.send("PUT", "/api/v1/targets/kc-bad/secret", otherAdmin, JSON.writeValueAsString(Map.of("fields",
                Map.of("username", KeycloakServer.ADMIN, "password", "not-the-password"))), Map.of());
        kernel.send("POST", "/api/v1/connectors/" + CONNECTOR + "/enable-reads", otherAdmin, null, Map.of());
        kernel.send("POST", "/api/v1/connectors/" + CONNECTOR + "/enable", otherAdmin, null, Map.of());
        var r = kernel.send("POST", "/api/v1/operations/call", otherAdmin, JSON.writeValueAsString(Map.of(
                "connector_id", CONNECTOR, "op_id", "keycloak.realms_admin.get", "target", "kc-bad",
                "params", Map.of())), Map.of());
        assertThat(r.json().path("status").asText()).as(r.body()).isEqualTo("error");
        assertThat(r.json().path("extras").path("error_code").asText()).isEqualTo("connector_auth_failed");
        assertThat(r.body()).doesNotContain("not-the-password");
    }
}
