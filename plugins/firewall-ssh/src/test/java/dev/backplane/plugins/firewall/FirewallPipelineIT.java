package dev.backplane.plugins.firewall;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The built firewall-ssh plugin jar loaded by a real kernel, driving nftables in a network namespace
 * through a real sshd: reads, an approval-gated rule add with preview hash and read-back, the lock-out
 * refusal, set elements, and the CLI's {@code svc firewall ...} verbs.
 */
@KernelTest
class FirewallPipelineIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONNECTOR = "firewall-ssh-1.x";
    private static Optional<String> unavailable = Optional.empty();
    private static NftLab lab;
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private final UUID tenant = UUID.randomUUID();
    private final String admin = issuer.tenantAdmin(tenant);
    private final String admin2 = issuer.token("admin2-" + tenant, tenant, "tenant_admin");
    private final String operator = issuer.operator(tenant);

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        Files.copy(Path.of(System.getProperty("firewall.plugin.jar")), setup.plugins().resolve("firewall-ssh-1.x.jar"));
        unavailable = NftLab.unavailable();
        if (unavailable.isEmpty()) {
            lab = setup.closeAfter(NftLab.start(Files.createTempDirectory("fw-pipeline")));
        }
    }

    @BeforeEach
    void needsTheLab() {
        Assumptions.assumeTrue(unavailable.isEmpty(), unavailable.orElse("") + "; not run");
    }

    private void target(String name) throws Exception {
        kernel.registerTarget(admin, Map.of("name", name, "product", "nftables", "host", "127.0.0.1", "port",
                lab.ssh().port(), "extras", lab.extras()));
        kernel.stageSecret(admin, name, Map.of("username", lab.ssh().user(), "private_key", lab.ssh().privateKey()));
        kernel.enableConnector(admin, CONNECTOR);
        for (String op : List.of("firewall.rule.add", "firewall.rule.delete", "firewall.element.add",
                "firewall.element.delete")) {
            assertThat(kernel.send("PATCH", "/api/v1/connectors/" + CONNECTOR + "/operations/" + op, admin,
                    "{\"is_enabled\": true}", Map.of()).status()).isEqualTo(200);
        }
    }

    private JsonNode call(String token, String op, String target, Map<String, Object> params, Map<String, Object> more)
            throws Exception {
        Map<String, Object> body = new HashMap<>(Map.of("connector_id", CONNECTOR, "op_id", op, "target", target,
                "params", params));
        body.putAll(more);
        var r = kernel.send("POST", "/api/v1/operations/call", token, JSON.writeValueAsString(body), Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).doesNotContain(lab.ssh().privateKey().strip());
        return r.json();
    }

    private String previewHash(String op, String target, Map<String, Object> params) throws Exception {
        var preview = kernel.send("POST", "/api/v1/operations/preview", operator, JSON.writeValueAsString(Map.of(
                "connector_id", CONNECTOR, "op_id", op, "target", target, "params", params)), Map.of());
        assertThat(preview.status()).as(preview.body()).isEqualTo(200);
        assertThat(preview.json().path("result").path("method").asText()).isEqualTo("SSH");
        return preview.json().path("result").path("preview_hash").asText();
    }

    private JsonNode approve(String token, JsonNode parked) {
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        var r = kernel.send("POST", "/api/v1/approvals/" + parked.path("extras").path("approval_request_id").asText()
                + "/approve", token, "{\"reason\": \"ok\"}", Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().path("result");
    }

    @Test
    void readsRuleWritesAndTheLockoutCheckGoThroughThePipeline() throws Exception {
        target("fw1");
        JsonNode rules = call(operator, "firewall.rule.list", "fw1", Map.of("family", "inet", "table", "filter",
                "chain", "input"), Map.of());
        assertThat(rules.path("status").asText()).as(rules.toString()).isEqualTo("ok");
        assertThat(rules.path("result").toString()).contains("@blocklist");
        var probe = kernel.send("POST", "/api/v1/targets/fw1/probe", operator, null, Map.of());
        assertThat(probe.json().path("fingerprint").path("product").asText()).as(probe.body()).isEqualTo("nftables");

        Map<String, Object> rule = Map.of("family", "inet", "table", "filter", "chain", "input", "protocol", "tcp",
                "dport", 8080, "saddr", "203.0.113.0/24", "verdict", "drop");
        JsonNode noHash = call(operator, "firewall.rule.add", "fw1", rule, Map.of());
        assertThat(noHash.path("extras").path("error_code").asText()).isEqualTo("preview_hash_required");
        JsonNode added = approve(admin2, call(admin, "firewall.rule.add", "fw1", rule,
                Map.of("preview_hash", previewHash("firewall.rule.add", "fw1", rule), "work_ref", "CHG-11")));
        assertThat(added.path("status").asText()).as(added.toString()).isEqualTo("ok");
        assertThat(added.path("result").path("verified").asBoolean()).isTrue();
        assertThat(lab.listChain("input")).contains("ip saddr 203.0.113.0/24 tcp dport 8080 drop # handle "
                + added.path("result").path("handle").asLong());

        Map<String, Object> lockout = Map.of("family", "inet", "table", "filter", "chain", "input", "protocol", "tcp",
                "dport", lab.ssh().port(), "verdict", "drop");
        JsonNode refused = approve(admin2, call(admin, "firewall.rule.add", "fw1", lockout,
                Map.of("preview_hash", previewHash("firewall.rule.add", "fw1", lockout))));
        assertThat(refused.path("status").asText()).isEqualTo("error");
        assertThat(refused.path("extras").path("error_code").asText()).isEqualTo("invalid_params");
        assertThat(refused.path("error").asText()).contains("allow_lockout");

        Map<String, Object> forced = new java.util.HashMap<>(lockout);
        forced.put("allow_lockout", true);
        JsonNode swapped = call(admin, "firewall.rule.add", "fw1", forced,
                Map.of("preview_hash", previewHash("firewall.rule.add", "fw1", lockout)));
        assertThat(swapped.path("extras").path("error_code").asText()).as("a hash of the checked request does not "
                + "cover the unchecked one").isEqualTo("preview_hash_required");
        assertThat(previewHash("firewall.rule.add", "fw1", forced)).isNotEqualTo(previewHash("firewall.rule.add", "fw1",
                lockout));

        Map<String, Object> block = Map.of("family", "inet", "table", "filter", "set", "blocklist", "elements",
                List.of("192.0.2.99"));
        JsonNode blocked = approve(admin2, call(admin, "firewall.element.add", "fw1", block, Map.of()));
        assertThat(blocked.path("result").path("verified").asBoolean()).as(blocked.toString()).isTrue();
        assertThat(lab.listSet("blocklist")).contains("192.0.2.99");

        JsonNode bad = call(admin, "firewall.rule.add", "fw1", Map.of("family", "inet", "table", "filter;id", "chain",
                "input", "verdict", "drop"), Map.of());
        assertThat(bad.path("extras").path("error_code").asText()).isEqualTo("invalid_params");
    }

    @Test
    void theCliHasFirewallVerbsFromTheCatalog() throws Exception {
        target("fw2");
        var cli = kernel.cli(Files.createTempDirectory("svc-cli"), operator);
        var chains = cli.run("firewall", "chain", "list", "--target", "fw2");
        assertThat(chains.exitCode()).as(chains.toString()).isZero();
        assertThat(chains.out()).contains("input").contains("locked");
        var rules = cli.run("firewall", "rule", "list", "--family", "inet", "--table", "filter", "--chain", "input",
                "--target", "fw2");
        assertThat(rules.out()).as(rules.toString()).contains("@blocklist");
        var block = cli.run("firewall", "element", "add", "--family", "inet", "--table", "filter", "--set", "blocklist",
                "--elements", "192.0.2.77", "--target", "fw2");
        assertThat(block.exitCode()).as(block.toString()).isEqualTo(4);
        var help = cli.run("firewall", "--help");
        assertThat(help.out()).contains("rule").contains("element").contains("chain");
    }
}
