package dev.backplane.plugins.firewall;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.OperationCalls;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The built firewall-ssh plugin jar loaded by a real kernel, driving nftables in a network namespace
 * through a real sshd: reads, an approval-gated rule add with preview hash and read-back, the lock-out
 * refusal, set elements, and the CLI's {@code svc firewall ...} verbs.
 */
class FirewallPipelineIT extends PerTestTenant {

    private static final String CONNECTOR = "firewall-ssh-1.x";
    private static Optional<String> unavailable = Optional.empty();
    private static NftLab lab;
    private OperationCalls calls;

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        setup.pluginJar("firewall.plugin.jar", "firewall-ssh-1.x.jar");
        unavailable = NftLab.unavailable();
        if (unavailable.isEmpty()) {
            lab = setup.closeAfter(NftLab.start(TempDirs.create("fw-pipeline")));
        }
    }

    @BeforeEach
    void needsTheLab() throws Exception {
        Assumptions.assumeTrue(unavailable.isEmpty(), unavailable.orElse("") + "; not run");
        calls = new OperationCalls(kernel, CONNECTOR, lab.ssh().privateKey().strip());
    }

    private void target(String name) throws Exception {
        kernel.registerTarget(admin, Map.of("name", name, "product", "nftables", "host", "127.0.0.1", "port",
                lab.ssh().port(), "extras", lab.extras()));
        kernel.stageSecret(admin, name, Map.of("username", lab.ssh().user(), "private_key", lab.ssh().privateKey()));
        kernel.enableConnector(admin, CONNECTOR);
        calls.enable(admin, "firewall.rule.add", "firewall.rule.delete", "firewall.element.add",
                "firewall.element.delete");
    }

    private String previewHash(String op, String target, Map<String, Object> params) throws Exception {
        JsonNode would = calls.preview(operator, op, target, params);
        assertThat(would.path("method").asText()).isEqualTo("SSH");
        return would.path("preview_hash").asText();
    }

    @Test
    void readsRuleWritesAndTheLockoutCheckGoThroughThePipeline() throws Exception {
        target("fw1");
        JsonNode rules = calls.call(operator, "firewall.rule.list", "fw1", Map.of("family", "inet", "table", "filter",
                "chain", "input"), Map.of());
        assertThat(rules.path("status").asText()).as(rules.toString()).isEqualTo("ok");
        assertThat(rules.path("result").toString()).contains("@blocklist");
        assertThat(calls.probe(operator, "fw1").path("product").asText()).isEqualTo("nftables");

        Map<String, Object> rule = Map.of("family", "inet", "table", "filter", "chain", "input", "protocol", "tcp",
                "dport", 8080, "saddr", "203.0.113.0/24", "verdict", "drop");
        JsonNode noHash = calls.call(operator, "firewall.rule.add", "fw1", rule, Map.of());
        assertThat(noHash.path("extras").path("error_code").asText()).isEqualTo("preview_hash_required");
        JsonNode added = calls.approve(admin2, calls.call(admin, "firewall.rule.add", "fw1", rule,
                Map.of("preview_hash", previewHash("firewall.rule.add", "fw1", rule), "work_ref", "CHG-11")));
        assertThat(added.path("status").asText()).as(added.toString()).isEqualTo("ok");
        assertThat(added.path("result").path("verified").asBoolean()).isTrue();
        assertThat(lab.listChain("input")).contains("ip saddr 203.0.113.0/24 tcp dport 8080 drop # handle "
                + added.path("result").path("handle").asLong());

        Map<String, Object> lockout = Map.of("family", "inet", "table", "filter", "chain", "input", "protocol", "tcp",
                "dport", lab.ssh().port(), "verdict", "drop");
        JsonNode refused = calls.approve(admin2, calls.call(admin, "firewall.rule.add", "fw1", lockout,
                Map.of("preview_hash", previewHash("firewall.rule.add", "fw1", lockout))));
        assertThat(refused.path("status").asText()).isEqualTo("error");
        assertThat(refused.path("extras").path("error_code").asText()).isEqualTo("invalid_params");
        assertThat(refused.path("error").asText()).contains("allow_lockout");

        Map<String, Object> forced = new java.util.HashMap<>(lockout);
        forced.put("allow_lockout", true);
        JsonNode swapped = calls.call(admin, "firewall.rule.add", "fw1", forced,
                Map.of("preview_hash", previewHash("firewall.rule.add", "fw1", lockout)));
        assertThat(swapped.path("extras").path("error_code").asText()).as("a hash of the checked request does not "
                + "cover the unchecked one").isEqualTo("preview_hash_required");
        assertThat(previewHash("firewall.rule.add", "fw1", forced)).isNotEqualTo(previewHash("firewall.rule.add", "fw1",
                lockout));

        Map<String, Object> block = Map.of("family", "inet", "table", "filter", "set", "blocklist", "elements",
                List.of("192.0.2.99"));
        JsonNode blocked = calls.approve(admin2, calls.call(admin, "firewall.element.add", "fw1", block, Map.of()));
        assertThat(blocked.path("result").path("verified").asBoolean()).as(blocked.toString()).isTrue();
        assertThat(lab.listSet("blocklist")).contains("192.0.2.99");

        JsonNode bad = calls.call(admin, "firewall.rule.add", "fw1", Map.of("family", "inet", "table", "filter;id",
                "chain", "input", "verdict", "drop"), Map.of());
        assertThat(bad.path("extras").path("error_code").asText()).isEqualTo("invalid_params");
    }

    @Test
    void theCliHasFirewallVerbsFromTheCatalog() throws Exception {
        target("fw2");
        var cli = kernel.cli(TempDirs.create("svc-cli"), operator);
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
