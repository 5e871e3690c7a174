package dev.backplane.plugins.vault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.OperationCalls;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.VaultDouble;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The built secret-store plugin jar loaded by a real kernel, driving the Vault double on loopback:
 * reads and the probe through the pipeline, the resolver on {@code sys/health}'s version (Vault 1.x and
 * OpenBao 2.x), writes parked for approval, a destroy's preview hash and approval, token refusal,
 * the SSRF guard, and the CLI's {@code svc vault ...} verbs. {@link VaultCanaryIT} sweeps for secrets.
 */
class VaultPipelineIT extends PerTestTenant {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String CONNECTOR = "vault-1.x";
    /** The operations enable-reads leaves off: the writes, and lease lookup (a POST). */
    static final List<String> NOT_READ_CLASS = List.of("vault.kv.write", "vault.kv.patch", "vault.kv.delete",
            "vault.kv.undelete", "vault.kv.destroy", "vault.kv.rollback", "vault.mount.enable", "vault.mount.disable",
            "vault.policy.write", "vault.policy.delete", "vault.lease.revoke", "vault.lease.lookup", "vault.pki.issue");
    private static VaultDouble vault;
    private static VaultDouble bao;
    private static VaultDouble old;
    private final OperationCalls calls = new OperationCalls(kernel, CONNECTOR, VaultDouble.ROOT_TOKEN);

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        setup.pluginJar("vault.plugin.jar", "vault-1.x.jar");
        vault = setup.closeAfter(new VaultDouble("secret"));
        vault.put("apps/web", Map.of("password", "pipeline-" + UUID.randomUUID(), "user", "web"));
        bao = setup.closeAfter(new VaultDouble("secret"));
        bao.version("2.1.0");
        old = setup.closeAfter(new VaultDouble("secret"));
        old.version("0.11.6");
    }

    private void target(String name, String product, VaultDouble server, String token) {
        kernel.registerTarget(admin, Map.of("name", name, "product", product, "host", "127.0.0.1", "port",
                server.port(), "extras", Map.of("scheme", "http")));
        kernel.stageSecret(admin, name, Map.of("token", token));
        kernel.enableConnector(admin, CONNECTOR);
    }

    /** The tenant's audit rows of {@code target}, as its admin reads them. */
    private String auditOf(String target) {
        var audit = kernel.get("/api/v1/audit?target=" + target + "&limit=100", admin);
        assertThat(audit.status()).as(audit.body()).isEqualTo(200);
        return audit.body();
    }

    @Test
    void readsTheProbeAndTheResolverGoThroughThePipeline() throws Exception {
        target("v1", "vault", vault, VaultDouble.ROOT_TOKEN);
        JsonNode list = calls.call(operator, "vault.kv.list", "v1", Map.of("path", "apps"));
        assertThat(list.path("status").asText()).as(list.toString()).isEqualTo("ok");
        assertThat(list.path("result").findValuesAsText("key")).contains("web");
        JsonNode read = calls.call(operator, "vault.kv.read", "v1", Map.of("path", "apps/web"));
        assertThat(read.path("result").path("keys").toString()).isEqualTo("[\"password\",\"user\"]");
        JsonNode mounts = calls.call(operator, "vault.mount.list", "v1", Map.of());
        assertThat(mounts.path("result").findValuesAsText("path")).contains("secret/", "kv1/", "pki/");
        JsonNode self = calls.call(operator, "vault.token.lookup-self", "v1", Map.of());
        assertThat(self.path("result").has("id")).isFalse();
        assertThat(self.path("result").path("policies").toString()).contains("root");

        calls.probe(operator, "v1", "HashiCorp", "vault", "1\\.15\\.2", "GET /v1/sys/health");

        target("bao1", "openbao", bao, VaultDouble.ROOT_TOKEN);
        JsonNode baoFp = calls.probe(operator, "bao1");
        assertThat(baoFp.path("vendor").asText()).isEqualTo("OpenBao");
        assertThat(baoFp.path("version").asText()).isEqualTo("2.1.0");
        JsonNode baoCall = calls.call(operator, "vault.sys.seal-status", "bao1", Map.of());
        assertThat(baoCall.path("result").path("version").asText()).as(baoCall.toString()).isEqualTo("2.1.0");
    }

    @Test
    void theResolverMatchesTheVersionSysHealthReports() throws Exception {
        target("old1", "vault", old, VaultDouble.ROOT_TOKEN);
        var first = kernel.send("POST", "/api/v1/targets/old1/probe", operator, null, Map.of());
        assertThat(first.status()).as("nothing known yet: the one vault connector probes it").isEqualTo(200);
        assertThat(first.json().path("fingerprint").path("version").asText()).isEqualTo("0.11.6");
        var again = kernel.send("POST", "/api/v1/targets/old1/probe", operator, null, Map.of());
        assertThat(again.status()).as(again.body()).isEqualTo(501);
        assertThat(again.body()).contains("no_connector").contains("0.11.6").contains("vault-1.x");
    }

    @Test
    void writesParkADestroyNeedsItsPreviewHashAndRunsOnceApproved() throws Exception {
        target("v2", "vault", vault, VaultDouble.ROOT_TOKEN);
        calls.enable(admin, NOT_READ_CLASS);
        JsonNode parked = calls.call(admin, "vault.kv.write", "v2", Map.of("path", "team/db", "data",
                Map.of("password", "pw-" + UUID.randomUUID())), Map.of("work_ref", "CHG-9"));
        assertThat(vault.current("secret", "team/db")).as("nothing sent while parked").isEmpty();
        JsonNode written = calls.approve(admin2, parked);
        assertThat(written.path("status").asText()).as(written.toString()).isEqualTo("ok");
        assertThat(written.path("result").path("version").asInt()).isEqualTo(1);
        assertThat(vault.current("secret", "team/db")).isPresent();

        Map<String, Object> destroy = Map.of("path", "team/db", "versions", List.of(1));
        JsonNode would = calls.previewRequired(operator, "vault.kv.destroy", "v2", destroy);
        assertThat(would.path("method").asText()).isEqualTo("POST");
        assertThat(would.path("path").asText()).isEqualTo("/v1/secret/destroy/team/db");
        JsonNode parkedDestroy = calls.call(operator, "vault.kv.destroy", "v2", destroy, would);
        assertThat(vault.current("secret", "team/db")).as("not destroyed while parked").isPresent();
        assertThat(kernel.send("POST", "/api/v1/approvals/" + parkedDestroy.path("extras").path("approval_request_id")
                .asText() + "/approve", operator, "{}", Map.of()).status()).as("an operator cannot approve").isEqualTo(403);
        JsonNode destroyed = calls.approve(admin, parkedDestroy);
        assertThat(destroyed.path("status").asText()).as(destroyed.toString()).isEqualTo("ok");
        assertThat(vault.current("secret", "team/db")).isEmpty();
        JsonNode versions = calls.call(operator, "vault.kv.versions", "v2", Map.of("path", "team/db"));
        assertThat(versions.path("result").findValuesAsText("state")).containsExactly("destroyed");

        assertThat(auditOf("v2")).contains("vault.kv.write").contains("vault.kv.destroy").contains("CHG-9");
    }

    @Test
    void aCertificateIssuesOnceApprovedAndItsPrivateKeyIsStagedForTheTenant() throws Exception {
        target("v7", "vault", vault, VaultDouble.ROOT_TOKEN);
        calls.enable(admin, NOT_READ_CLASS);
        Map<String, Object> issue = Map.of("role", "web", "common_name", "www.example.com",
                "alt_names", List.of("api.example.com"), "ttl", "72h");
        JsonNode would = calls.previewRequired(operator, "vault.pki.issue", "v7", issue);
        assertThat(would.path("method").asText()).isEqualTo("POST");
        assertThat(would.path("path").asText()).isEqualTo("/v1/pki/issue/web");
        int before = vault.issuedSerials().size();
        JsonNode parked = calls.call(operator, "vault.pki.issue", "v7", issue, would);
        assertThat(vault.issuedSerials()).as("nothing issued while parked").hasSize(before);
        JsonNode issued = calls.approve(admin, parked);
        assertThat(issued.path("status").asText()).as(issued.toString()).isEqualTo("ok");
        JsonNode cert = issued.path("result");
        assertThat(cert.path("serial_number").asText()).isEqualTo(vault.issuedSerials().get(before));
        assertThat(cert.path("certificate").asText()).startsWith("-----BEGIN CERTIFICATE-----");
        assertThat(cert.path("issuing_ca").asText()).startsWith("-----BEGIN CERTIFICATE-----");
        assertThat(cert.path("expiration").asLong()).isPositive();
        assertThat(cert.has("private_key")).isFalse();
        assertThat(issued.toString()).doesNotContain("PRIVATE KEY");
        String ref = cert.path("private_key_ref").asText();
        assertThat(ref).startsWith("tenants/" + tenant + "/issued/");

        // the kernel's credential store holds the key at that ref, for this tenant only
        var store = new dev.backplane.kernel.credentials.CredentialService(
                dev.backplane.kernel.credentials.SecretRefs.Backend.KV,
                new dev.backplane.kernel.credentials.FileKvStore(kernel.dataDir().resolve("kv")));
        var staged = store.resolve(Optional.of(tenant), ref);
        assertThat(staged.field("private_key")).startsWith("-----BEGIN EC PRIVATE KEY-----");
        assertThat(staged.field("private_key_type")).isEqualTo("ec");
        org.junit.jupiter.api.Assertions.assertThrows(dev.backplane.plugin.api.ConnectorException.class,
                () -> store.resolve(Optional.of(UUID.randomUUID()), ref));
        // usable as a secret_ref of this tenant's targets, refused for another tenant's
        assertThat(kernel.registerTarget(admin, Map.of("name", "v7-cert", "product", "vault", "host", "127.0.0.1",
                "port", vault.port(), "secret_ref", ref, "extras", Map.of("scheme", "http"))).status()).isEqualTo(201);
        UUID other = UUID.randomUUID();
        var foreign = kernel.send("POST", "/api/v1/targets", issuer.tenantAdmin(other), JSON.writeValueAsString(Map.of(
                "name", "v7-stolen", "product", "vault", "host", "127.0.0.1", "port", vault.port(), "secret_ref", ref,
                "extras", Map.of("scheme", "http"))), Map.of());
        assertThat(foreign.status()).as(foreign.body()).isBetween(400, 499);

        assertThat(auditOf("v7")).contains("vault.pki.issue").doesNotContain("PRIVATE KEY");
    }

    @Test
    void badParamsAreRefusedAtTheSchema() throws Exception {
        target("v3", "vault", vault, VaultDouble.ROOT_TOKEN);
        for (String bad : List.of("../sys/mounts", "a/../../sys", "a b", "a?list=true", "/abs")) {
            JsonNode r = calls.call(operator, "vault.kv.read", "v3", Map.of("path", bad));
            assertThat(r.path("extras").path("error_code").asText()).as(bad).isEqualTo("invalid_params");
        }
    }

    @Test
    void aRefusedTokenIsConnectorAuthFailed() throws Exception {
        target("v4", "vault", vault, "s.revoked-" + UUID.randomUUID());
        JsonNode r = calls.call(operator, "vault.kv.list", "v4", Map.of());
        assertThat(r.path("status").asText()).isEqualTo("error");
        assertThat(r.path("extras").path("error_code").asText()).isEqualTo("connector_auth_failed");
        target("v5", "vault", vault, VaultDouble.LIMITED_TOKEN);
        JsonNode denied = calls.call(operator, "vault.kv.list", "v5", Map.of());
        assertThat(denied.path("extras").path("error_code").asText()).isEqualTo("connector_error");
        assertThat(denied.toString()).contains("policies do not allow").doesNotContain(VaultDouble.LIMITED_TOKEN);
    }

    @Test
    void aPrivateAddressOffTheAllowlistIsRefusedAtRegistration() {
        var r = kernel.post("/api/v1/targets", admin, Map.of("name", "v-private",
                "product", "vault", "host", "10.20.30.40", "port", 8200));
        assertThat(r.status()).as(r.body()).isEqualTo(422);
    }

    @Test
    void theCliHasVaultVerbsFromTheCatalog() throws Exception {
        target("v6", "vault", vault, VaultDouble.ROOT_TOKEN);
        calls.enable(admin, NOT_READ_CLASS);
        CliRunner cli = kernel.cli(operator);
        var list = cli.run("vault", "kv", "list", "apps", "--target", "v6");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.out()).contains("web");
        var read = cli.run("vault", "kv", "read", "apps/web", "--target", "v6", "--json");
        assertThat(JSON.readTree(read.out()).path("result").path("keys").toString()).as(read.toString())
                .isEqualTo("[\"password\",\"user\"]");
        var health = cli.run("vault", "sys", "health", "--target", "v6", "--json");
        assertThat(JSON.readTree(health.out()).path("result").path("sealed").asBoolean(true)).as(health.toString())
                .isFalse();
        Path data = cli.file("data.json", "{\"api_key\": \"cli-" + UUID.randomUUID() + "\"}");
        var write = cli.run("vault", "kv", "write", "cli/app", "--data", "@" + data, "--target", "v6");
        assertThat(write.exitCode()).as(write.toString()).isEqualTo(4);
        assertThat(write.out()).contains("parked for approval");
        var delete = cli.run("vault", "kv", "delete", "apps/web", "--versions", "1", "--versions", "2", "--target", "v6");
        assertThat(delete.exitCode()).as("repeated --versions pass the schema: " + delete).isEqualTo(4);
        var bad = cli.run("vault", "kv", "read", "../sys", "--target", "v6");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.out()).contains("invalid_params");
        var help = cli.run("vault", "--help");
        assertThat(help.out()).contains("kv").contains("sys").contains("policy").contains("pki").contains("operation");
    }
}
