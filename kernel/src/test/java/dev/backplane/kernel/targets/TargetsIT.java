package dev.backplane.kernel.targets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.client.api.TargetsApi;
import dev.backplane.client.model.Target;
import dev.backplane.client.model.TargetPage;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.GeneratedClient;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The target registry over real HTTP: validation, aliases, paging, patch, delete, import, tenant isolation. */
@KernelTest(settings = "SVC_TARGET_SSRF_ALLOWLIST=127.0.0.0/8, ::1/128")
class TargetsIT extends PerTestTenant {

    private final String reader = issuer.token("reader", tenant, "read_only");

    @BeforeKernel
    static void plugins(KernelSetup setup) {
        setup.plugin(TestPlugins.connector("demo", "2.x").product("demo").ranges("2.x"));
        setup.plugin(TestPlugins.connector("vaultish", "1.x").product("vault").ranges("1.x"));
    }

    private TestKernel.Response post(String token, String body) {
        return kernel.post("/api/v1/targets", token, body);
    }

    private static void assertError(TestKernel.Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().path("error").asText()).isEqualTo(code);
    }

    @Test
    void createDescribeByNameOrAliasAndDefaults() {
        var created = post(admin, "{\"name\": \"edge-1\", \"product\": \"demo\", \"host\": \"127.0.0.1\", "
                + "\"aliases\": [\"edge\", \"e1\"], \"notes\": \"rack 4\", \"version\": \"2.3\", \"extras\": {\"rack\": 4}}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode t = created.json();
        assertThat(t.path("port").asInt()).as("product default").isEqualTo(443);
        assertThat(t.path("port_is_default").asBoolean()).isTrue();
        assertThat(t.path("auth_model").asText()).isEqualTo("shared_service_account");
        assertThat(t.path("secret_ref").asText()).isEqualTo("tenants/" + tenant + "/edge-1");
        assertThat(t.path("verify_tls").asBoolean()).isTrue();
        assertThat(t.path("fingerprint").isNull()).isTrue();
        assertThat(t.path("aliases").toString()).isEqualTo("[\"e1\",\"edge\"]");

        assertThat(kernel.get("/api/v1/targets/edge", reader).json().path("name").asText()).isEqualTo("edge-1");
        assertThat(kernel.get("/api/v1/targets/e1", reader).json().path("extras").path("rack").asInt()).isEqualTo(4);
        assertError(kernel.get("/api/v1/targets/nope", reader), 404, "target_not_found");
        assertError(post(reader, "{\"name\": \"x\", \"product\": \"demo\", \"host\": \"127.0.0.1\"}"), 403,
                "insufficient_role");
    }

    @Test
    void registrationErrorsFollowTheSpec() {
        var product = post(admin, "{\"name\": \"k\", \"product\": \"kubernetes\", \"host\": \"127.0.0.1\"}");
        assertError(product, 422, "unknown_product");
        assertThat(product.json().path("extras").path("valid_products").toString()).isEqualTo("[\"demo\",\"vault\"]");

        assertError(post(admin, "{\"name\": \"t\", \"product\": \"demo\", \"host\": \"127.0.0.1\", \"verify_tls\": false, "
                + "\"tls_ca_pin\": \"-----BEGIN CERTIFICATE-----\"}"), 422, "tls_options_conflict");
        assertError(post(admin, "{\"name\": \"t\", \"product\": \"demo\", \"host\": \"127.0.0.1\", "
                + "\"tls_ca_pin\": \"not a pem\"}"), 422, "invalid_tls_ca_pin");

        var ssrf = post(admin, "{\"name\": \"meta\", \"product\": \"demo\", \"host\": \"169.254.169.254\"}");
        assertError(ssrf, 422, "ssrf_refused");
        assertThat(ssrf.json().path("message").asText()).contains("SVC_TARGET_SSRF_ALLOWLIST");
        assertError(post(admin, "{\"name\": \"lan\", \"product\": \"demo\", \"host\": \"10.0.0.5\"}"), 422, "ssrf_refused");
        assertError(post(admin, "{\"name\": \"ghost\", \"product\": \"demo\", \"host\": \"no-such-host.invalid\"}"), 422,
                "ssrf_refused");

        UUID other = UUID.randomUUID();
        var scope = post(admin, "{\"name\": \"s\", \"product\": \"demo\", \"host\": \"127.0.0.1\", \"secret_ref\": "
                + "\"tenants/" + other + "/s\"}");
        assertError(scope, 422, "secret_ref_outside_tenant_scope");
        assertThat(scope.json().path("extras").path("expected_secret_ref").asText()).isEqualTo("tenants/" + tenant + "/s");
        assertThat(post(admin, "{\"name\": \"s2\", \"product\": \"demo\", \"host\": \"127.0.0.1\", \"secret_ref\": "
                + "\"tenants/" + tenant + "/shared/demo\"}").status()).isEqualTo(201);

        assertError(post(admin, "{\"name\": \"f\", \"product\": \"demo\", \"host\": \"127.0.0.1\", "
                + "\"fingerprint\": {\"vendor\": \"x\"}}"), 422, "fingerprint_is_server_managed");
        assertError(post(admin, "{\"product\": \"demo\", \"host\": \"127.0.0.1\"}"), 422, "missing_field");
        assertError(post(admin, "{\"name\": \"bad name!\", \"product\": \"demo\", \"host\": \"127.0.0.1\"}"), 422,
                "invalid_target_name");
        assertError(post(admin, "{\"name\": \"p\", \"product\": \"demo\", \"host\": \"127.0.0.1\", \"port\": 70000}"), 422,
                "invalid_port");
        assertError(post(admin, "{\"name\": \"i\", \"product\": \"demo\", \"host\": \"127.0.0.1\", "
                + "\"preferred_impl_id\": \"vaultish\"}"), 422, "unknown_impl");
        assertError(post(admin, "{\"name\": \"u\", \"product\": \"demo\", \"host\": \"127.0.0.1\", \"colour\": 1}"), 422,
                "invalid_request");
        assertThat(kernel.get("/api/v1/targets", admin).json().path("targets").size())
                .as("only the valid target was written").isEqualTo(1);
    }

    @Test
    void namesAndAliasesShareOneNamespace() {
        assertThat(post(admin, "{\"name\": \"a\", \"product\": \"demo\", \"host\": \"127.0.0.1\", \"aliases\": [\"alpha\"]}")
                .status()).isEqualTo(201);
        assertError(post(admin, "{\"name\": \"a\", \"product\": \"demo\", \"host\": \"127.0.0.1\"}"), 409, "target_exists");
        assertError(post(admin, "{\"name\": \"alpha\", \"product\": \"demo\", \"host\": \"127.0.0.1\"}"), 409,
                "target_exists");
        assertError(post(admin, "{\"name\": \"b\", \"product\": \"demo\", \"host\": \"127.0.0.1\", \"aliases\": [\"a\"]}"),
                409, "alias_in_use");
    }

    @Test
    void listPagesByNameAndFiltersByProduct() throws Exception {
        for (String n : new String[] {"n3", "n1", "n2", "n4"}) {
            assertThat(post(admin, "{\"name\": \"" + n + "\", \"product\": \"" + (n.equals("n4") ? "vault" : "demo")
                    + "\", \"host\": \"127.0.0.1\"}").status()).isEqualTo(201);
        }
        TargetsApi targets = new TargetsApi(GeneratedClient.of(kernel, reader));
        TargetPage first = targets.getTargets(page().limit(2).build());
        assertThat(first.getTargets()).extracting(Target::getName).containsExactly("n1", "n2");
        assertThat(first.getNextCursor()).isEqualTo("n2");
        TargetPage second = targets.getTargets(page().limit(2).cursor("n2").build());
        assertThat(second.getTargets()).extracting(Target::getName).containsExactly("n3", "n4");
        TargetPage vault = targets.getTargets(page().product("vault").build());
        assertThat(vault.getTargets()).extracting(Target::getName).containsExactly("n4");
        assertThat(vault.getNextCursor()).isNull();
        assertThatThrownBy(() -> targets.getTargets(page().limit(0).build()))
                .satisfies(e -> assertThat(GeneratedClient.errorCode(e, 422)).isEqualTo("invalid_limit"));
        assertThatThrownBy(() -> targets.getTargets(page().limit(501).build()))
                .satisfies(e -> assertThat(GeneratedClient.errorCode(e, 422)).isEqualTo("invalid_limit"));
    }

    private static TargetsApi.APIGetTargetsRequest.Builder page() {
        return TargetsApi.APIGetTargetsRequest.newBuilder();
    }

    @Test
    void patchIsSparseAndDeleteRemoves() {
        assertThat(post(admin, "{\"name\": \"p1\", \"product\": \"demo\", \"host\": \"127.0.0.1\", \"notes\": \"keep\", "
                + "\"port\": 8443}").status()).isEqualTo(201);
        var patched = kernel.send("PATCH", "/api/v1/targets/p1", admin, "{\"aliases\": [\"pee\"], \"verify_tls\": false}",
                Map.of());
        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        assertThat(patched.json().path("notes").asText()).isEqualTo("keep");
        assertThat(patched.json().path("port").asInt()).isEqualTo(8443);
        assertThat(patched.json().path("verify_tls").asBoolean()).isFalse();
        assertError(kernel.send("PATCH", "/api/v1/targets/pee", admin, "{\"host\": \"10.9.9.9\"}", Map.of()), 422,
                "ssrf_refused");
        assertError(kernel.send("PATCH", "/api/v1/targets/p1", admin, "{\"name\": \"p2\"}", Map.of()), 422,
                "invalid_target");
        assertThat(kernel.send("DELETE", "/api/v1/targets/pee", admin, null, Map.of()).status()).isEqualTo(200);
        assertError(kernel.get("/api/v1/targets/p1", admin), 404, "target_not_found");
    }

    @Test
    void importIsAllOrNothing() {
        String two = "{\"targets\": [{\"name\": \"i1\", \"product\": \"demo\", \"host\": \"127.0.0.1\"}, "
                + "{\"name\": \"i2\", \"product\": \"demo\", \"host\": \"127.0.0.2\"}]";
        var dry = kernel.send("POST", "/api/v1/targets/import", admin, two + ", \"dry_run\": true}", Map.of());
        assertThat(dry.status()).as(dry.body()).isEqualTo(200);
        assertThat(dry.json().path("created_count").asInt()).isEqualTo(2);
        assertThat(kernel.get("/api/v1/targets", admin).json().path("targets").size()).as("dry run wrote nothing").isZero();

        assertThat(kernel.send("POST", "/api/v1/targets/import", admin, two + "}", Map.of()).json()
                .path("created_count").asInt()).isEqualTo(2);
        var again = kernel.send("POST", "/api/v1/targets/import", admin, two + "}", Map.of());
        assertError(again, 409, "target_exists");

        String mixed = "{\"targets\": [{\"name\": \"i1\", \"notes\": \"patched\"}, "
                + "{\"name\": \"i3\", \"product\": \"demo\", \"host\": \"127.0.0.3\"}], \"update\": true}";
        var upd = kernel.send("POST", "/api/v1/targets/import", admin, mixed, Map.of());
        assertThat(upd.status()).as(upd.body()).isEqualTo(200);
        assertThat(upd.json().path("updated").toString()).isEqualTo("[\"i1\"]");
        assertThat(upd.json().path("created").toString()).isEqualTo("[\"i3\"]");
        assertThat(kernel.get("/api/v1/targets/i1", admin).json().path("notes").asText()).isEqualTo("patched");

        String bad = "{\"targets\": [{\"name\": \"i4\", \"product\": \"demo\", \"host\": \"127.0.0.4\"}, "
                + "{\"name\": \"i5\", \"product\": \"nope\", \"host\": \"127.0.0.5\"}], \"update\": true}";
        var refused = kernel.send("POST", "/api/v1/targets/import", admin, bad, Map.of());
        assertError(refused, 422, "invalid_import");
        assertThat(refused.json().path("extras").path("errors").get(0).path("name").asText()).isEqualTo("i5");
        assertError(kernel.get("/api/v1/targets/i4", admin), 404, "target_not_found");
    }

    @Test
    void theCliAddsListsDescribesAndImports() throws Exception {
        CliRunner adm = kernel.cli(admin);
        CliRunner.Result add = adm.run("targets", "add", "web-1", "--host", "127.0.0.1", "--product", "demo", "--alias", "w1",
                "--port", "8443", "--note", "front door", "--verify-tls=false", "--version", "2.1");
        assertThat(add.exitCode()).as(add.toString()).isZero();
        assertThat(add.out()).contains("registered target web-1", "127.0.0.1:8443", "NOT verified");
        assertThat(adm.run("targets", "create", "web-2", "--host", "127.0.0.2", "--product", "demo").exitCode()).isZero();
        CliRunner.Result bad = adm.run("targets", "add", "k", "--host", "127.0.0.1", "--product", "kubernetes");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.err()).contains("unknown_product");
        assertThat(adm.run("targets", "describe", "w1").out()).contains("web-1", "front door", "(not probed)");
        CliRunner.Result page = adm.run("targets", "list", "--limit", "1");
        assertThat(page.out()).contains("web-1").contains("svc targets list --cursor web-1").doesNotContain("web-2");
        assertThat(adm.run("targets", "list", "--cursor", "web-1").out()).contains("web-2");

        Path file = TempDirs.file("targets", ".yaml");
        Files.writeString(file, """
                targets:
                  - name: db-1
                    product: demo
                    host: 127.0.0.5
                    rack: r7
                    fingerprint: {vendor: stale}
                  - name: web-1
                    product: demo
                    host: 127.0.0.1
                    notes: patched by import
                """);
        CliRunner.Result dry = adm.run("targets", "import", file.toString(), "--dry-run", "--update");
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains("would create 1 [db-1], would update 1 [web-1]");
        assertThat(dry.err()).contains("fingerprint is server-managed and was dropped");
        assertThat(kernel.get("/api/v1/targets/db-1", admin).status()).isEqualTo(404);

        CliRunner.Result abort = adm.run("targets", "import", file.toString());
        assertThat(abort.exitCode()).isEqualTo(1);
        assertThat(abort.err()).contains("target_exists", "web-1");
        assertThat(kernel.get("/api/v1/targets/db-1", admin).status()).as("aborted before any write").isEqualTo(404);

        CliRunner.Result applied = adm.run("targets", "import", file.toString(), "--update");
        assertThat(applied.out()).contains("created 1, updated 1");
        JsonNode db = kernel.get("/api/v1/targets/db-1", admin).json();
        assertThat(db.path("extras").path("rack").asText()).as("unknown keys go to extras").isEqualTo("r7");
        assertThat(db.path("fingerprint").isNull()).isTrue();
        assertThat(kernel.get("/api/v1/targets/web-1", admin).json().path("notes").asText()).isEqualTo("patched by import");

        Path invalid = TempDirs.file("targets", ".yaml");
        Files.writeString(invalid, "targets:\n  - name: x\n    host: 127.0.0.1\n");
        CliRunner.Result local = adm.run("targets", "import", invalid.toString());
        assertThat(local.exitCode()).isEqualTo(2);
        assertThat(local.err()).contains("'product' is required", "nothing was sent");
    }

    @Test
    void secretsAreStagedWriteOnly() throws Exception {
        assertThat(post(admin, "{\"name\": \"vault-1\", \"product\": \"vault\", \"host\": \"127.0.0.1\"}").status())
                .isEqualTo(201);
        var staged = kernel.send("PUT", "/api/v1/targets/vault-1/secret", admin,
                "{\"fields\": {\"username\": \"svc\", \"password\": \"pw-do-not-echo\"}}", Map.of());
        assertThat(staged.status()).as(staged.body()).isEqualTo(200);
        assertThat(staged.body()).doesNotContain("pw-do-not-echo");
        assertThat(staged.json().path("fields").toString()).isEqualTo("[\"password\",\"username\"]");
        assertThat(staged.json().path("secret_ref").asText()).isEqualTo("tenants/" + tenant + "/vault-1");
        assertError(kernel.send("PUT", "/api/v1/targets/vault-1/secret", reader, "{\"fields\": {\"a\": \"b\"}}",
                Map.of()), 403, "insufficient_role");
        assertError(kernel.send("PUT", "/api/v1/targets/vault-1/secret", admin, "{\"fields\": {}}", Map.of()), 422,
                "invalid_secret");
        String other = issuer.token("o", UUID.randomUUID(), "tenant_admin");
        assertError(kernel.send("PUT", "/api/v1/targets/vault-1/secret", other, "{\"fields\": {\"a\": \"b\"}}",
                Map.of()), 404, "target_not_found");

        CliRunner adm = kernel.cli(admin);
        CliRunner.Result piped = adm.run(Map.of(), "apiVersion: v1\nclusters: []\n", "targets", "stage-secret", "vault-1",
                "--field", "kubeconfig");
        assertThat(piped.exitCode()).as(piped.toString()).isZero();
        assertThat(piped.out()).contains("staged field(s) [kubeconfig]").doesNotContain("clusters");
        CliRunner.Result lines = adm.run(Map.of("SVC_TARGET_SECRET", "username=svc\npassword=env-secret-1"), "",
                "targets", "stage-secret", "vault-1");
        assertThat(lines.out()).contains("[password, username]").doesNotContain("env-secret-1");
        assertThat(adm.run(Map.of(), "", "targets", "stage-secret", "vault-1").exitCode()).isEqualTo(2);
        assertThat(adm.run(Map.of(), "not key value", "targets", "stage-secret", "vault-1").exitCode()).isEqualTo(2);
    }

    @Test
    void anotherTenantCannotSeeOrTouchTheseTargets() {
        assertThat(post(admin, "{\"name\": \"mine\", \"product\": \"demo\", \"host\": \"127.0.0.1\"}").status())
                .isEqualTo(201);
        UUID otherTenant = UUID.randomUUID();
        String other = issuer.token("other-admin", otherTenant, "tenant_admin");
        assertThat(kernel.get("/api/v1/targets", other).json().path("targets").size()).isZero();
        assertError(kernel.get("/api/v1/targets/mine", other), 404, "target_not_found");
        assertError(kernel.send("PATCH", "/api/v1/targets/mine", other, "{\"notes\": \"x\"}", Map.of()), 404,
                "target_not_found");
        assertError(kernel.send("DELETE", "/api/v1/targets/mine", other, null, Map.of()), 404, "target_not_found");
        var aimed = kernel.send("POST", "/api/v1/targets", other, "{\"name\": \"mine\", \"product\": \"demo\", "
                + "\"host\": \"127.0.0.1\", \"secret_ref\": \"tenants/" + tenant + "/mine\"}", Map.of());
        assertError(aimed, 422, "secret_ref_outside_tenant_scope");
        assertThat(kernel.get("/api/v1/targets/mine", admin).status()).isEqualTo(200);
    }
}
