package dev.backplane.plugins.dns;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.OperationCalls;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.plugins.ssh.SshLab;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The built dns-ssh plugin jar loaded by a real kernel, driving a real named through a real sshd on
 * loopback: reads, the approval-gated writes with preview hash and read-back, input refused at the
 * schema, host-key pinning, the probe, the audit trail and the CLI's {@code svc dns ...} verbs.
 */
class DnsPipelineIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONNECTOR = "dns-ssh-9.x";
    private static final List<String> WRITES = List.of("dns.record.add", "dns.record.update", "dns.record.delete",
            "dns.zone.reload");
    private static Optional<String> unavailable = Optional.empty();
    private static SshLab ssh;
    private static BindLab bind;
    private OperationCalls calls;

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        setup.pluginJar("dns.plugin.jar", "dns-ssh-9.x.jar");
        unavailable = SshLab.unavailable().or(BindLab::unavailable);
        if (unavailable.isEmpty()) {
            Path dir = TempDirs.create("dns-pipeline");
            ssh = SshLab.start(dir.resolve("ssh"));
            setup.closeAfter(ssh);
            bind = BindLab.start(dir.resolve("bind"));
            setup.closeAfter(bind);
        }
    }

    @BeforeEach
    void needsTheLab() throws Exception {
        Assumptions.assumeTrue(unavailable.isEmpty(), unavailable.orElse("") + "; not run");
        calls = new OperationCalls(kernel, CONNECTOR, ssh.privateKey().strip());
    }

    private void target(String name, Map<String, Object> moreExtras) throws Exception {
        Map<String, Object> extras = new HashMap<>(bind.extras());
        extras.put("ssh_host_key", ssh.hostKeyLine());
        extras.putAll(moreExtras);
        kernel.registerTarget(admin, Map.of("name", name, "product", "bind", "host", "127.0.0.1", "port", ssh.port(),
                "extras", extras));
        kernel.stageSecret(admin, name, Map.of("username", ssh.user(), "private_key", ssh.privateKey()));
        kernel.enableConnector(admin, CONNECTOR);
    }

    @Test
    void readsAndTheProbeGoThroughThePipeline() throws Exception {
        target("ns1", Map.of());
        JsonNode zones = calls.call(operator, "dns.zone.list", "ns1", Map.of());
        assertThat(zones.path("status").asText()).as(zones.toString()).isEqualTo("ok");
        assertThat(zones.path("result").findValuesAsText("zone")).contains(BindLab.ZONE, BindLab.STATIC_ZONE);
        JsonNode show = calls.call(operator, "dns.zone.show", "ns1", Map.of("name", BindLab.ZONE));
        assertThat(show.path("result").toString()).contains("\"name\":\"www.example.test.\"").contains("192.0.2.10");
        JsonNode search = calls.call(operator, "dns.record.search", "ns1", Map.of("zone", BindLab.ZONE, "type", "MX"));
        assertThat(search.path("result").findValuesAsText("data")).containsExactly("10 mx.example.test.");
        assertThat(calls.call(operator, "dns.server.status", "ns1", Map.of()).path("result").path("version").asText())
                .startsWith("BIND 9");
        assertThat(calls.call(operator, "dns.config.check", "ns1",
                Map.of()).path("result").path("ok").asBoolean()).isTrue();

        calls.probe(operator, "ns1", "ISC", "bind", "9\\..*", "ssh: named -v");
    }

    @Test
    void writesParkForApprovalRunOnceApprovedAndAreReadBack() throws Exception {
        target("ns2", Map.of());
        calls.enable(admin, WRITES);
        Map<String, Object> record = Map.of("zone", BindLab.ZONE, "name", "pipe", "type", "A", "ttl", 90,
                "data", "192.0.2.90");
        JsonNode parked = calls.call(admin, "dns.record.add", "ns2", record, Map.of("work_ref", "CHG-7"));
        assertThat(bind.lookup("pipe.example.test", "A")).as("nothing sent while parked").isEmpty();
        assertThat(kernel.send("POST", "/api/v1/approvals/" + parked.path("extras").path("approval_request_id").asText()
                + "/approve", admin, "{}", Map.of()).status()).as("four eyes").isEqualTo(403);
        JsonNode added = calls.approve(admin2, parked);
        assertThat(added.path("status").asText()).as(added.toString()).isEqualTo("ok");
        assertThat(added.path("result").path("verified").asBoolean()).isTrue();
        assertThat(bind.lookup("pipe.example.test", "A")).containsExactly("90 192.0.2.90");

        JsonNode updated = calls.approve(admin2, calls.call(admin, "dns.record.update", "ns2", Map.of("zone",
                BindLab.ZONE, "name", "pipe", "type", "A", "ttl", 30, "data", "192.0.2.91")));
        assertThat(updated.path("status").asText()).as(updated.toString()).isEqualTo("ok");
        assertThat(bind.lookup("pipe.example.test", "A")).containsExactly("30 192.0.2.91");

        Map<String, Object> delete = Map.of("zone", BindLab.ZONE, "name", "pipe", "type", "A");
        JsonNode would = calls.previewRequired(operator, "dns.record.delete", "ns2", delete);
        assertThat(would.path("method").asText()).isEqualTo("SSH");
        assertThat(would.path("path").asText()).startsWith("nsupdate -k /");
        assertThat(would.path("body").path("stdin").toString()).contains("update delete pipe.example.test. IN A");
        JsonNode deleted = calls.approve(admin, calls.call(operator, "dns.record.delete", "ns2", delete, would));
        assertThat(deleted.path("status").asText()).as(deleted.toString()).isEqualTo("ok");
        assertThat(bind.lookup("pipe.example.test", "A")).isEmpty();

        JsonNode reload = calls.approve(admin2, calls.call(admin, "dns.zone.reload", "ns2", Map.of("name",
                BindLab.STATIC_ZONE)));
        assertThat(reload.path("result").path("reloaded").asBoolean()).as(reload.toString()).isTrue();

        var audit = kernel.get("/api/v1/audit?target=ns2&limit=100", admin);
        assertThat(audit.status()).as(audit.body()).isEqualTo(200);
        assertThat(audit.body()).contains("dns.record.add").contains("dns.record.delete").contains("CHG-7")
                .doesNotContain(ssh.privateKey().strip());
    }

    @Test
    void injectionInEveryStringParameterIsRefusedAtTheSchema() throws Exception {
        target("ns3", Map.of());
        calls.enable(admin, WRITES);
        Map<String, Object> good = Map.of("zone", BindLab.ZONE, "name", "inj", "type", "TXT", "ttl", 60, "data", "x");
        for (String param : List.of("zone", "name", "type", "data")) {
            for (String bad : List.of("; id", "$(id)", "`id`", "a\nb", "a'b", "a\"b", "-x")) {
                if (param.equals("data") && bad.equals("-x")) {
                    continue; // a TXT word starting with '-' is data, not an argument
                }
                Map<String, Object> params = new HashMap<>(good);
                params.put(param, bad);
                JsonNode r = calls.call(admin, "dns.record.add", "ns3", params);
                assertThat(r.path("extras").path("error_code").asText()).as(param + "=" + bad).isEqualTo("invalid_params");
            }
        }
        JsonNode show = calls.call(operator, "dns.zone.show", "ns3", Map.of("name", BindLab.ZONE + ";id"));
        assertThat(show.path("extras").path("error_code").asText()).isEqualTo("invalid_params");
        assertThat(bind.lookup("inj.example.test", "TXT")).isEmpty();
    }

    @Test
    void aWrongOrMissingHostKeyPinFailsClosed() throws Exception {
        target("ns4", Map.of("ssh_host_key", ssh.strangerKeyLine()));
        JsonNode r = calls.call(operator, "dns.zone.list", "ns4", Map.of());
        assertThat(r.path("status").asText()).isEqualTo("error");
        assertThat(r.path("extras").path("error_code").asText()).isEqualTo("connector_host_key_mismatch");
        var probe = kernel.send("POST", "/api/v1/targets/ns4/probe", operator, null, Map.of());
        assertThat(probe.body()).contains("connector_host_key_mismatch");
    }

    @Test
    void aPrivateAddressOffTheAllowlistIsRefusedAtRegistration() {
        var r = kernel.post("/api/v1/targets", admin, Map.of("name", "ns-private",
                "product", "bind", "host", "10.20.30.40", "port", 22));
        assertThat(r.status()).as(r.body()).isEqualTo(422);
    }

    @Test
    void theCliHasDnsVerbsFromTheCatalog() throws Exception {
        target("ns5", Map.of());
        calls.enable(admin, WRITES);
        Path home = TempDirs.create("svc-cli");
        var cli = kernel.cli(home, operator);
        var zones = cli.run("dns", "zone", "list", "--target", "ns5");
        assertThat(zones.exitCode()).as(zones.toString()).isZero();
        assertThat(zones.out()).contains(BindLab.ZONE).contains(BindLab.STATIC_ZONE);
        var show = cli.run("dns", "zone", "show", BindLab.ZONE, "--target", "ns5", "--json");
        assertThat(JSON.readTree(show.out()).path("status").asText()).as(show.toString()).isEqualTo("ok");
        var search = cli.run("dns", "record", "search", "--zone", BindLab.ZONE, "--type", "CNAME", "--target", "ns5");
        assertThat(search.out()).as(search.toString()).contains("ftp.example.test.");
        var add = cli.run("dns", "record", "add", "cli", "--zone", BindLab.ZONE, "--type", "A", "--ttl", "60",
                "--data", "192.0.2.60", "--target", "ns5");
        assertThat(add.exitCode()).as(add.toString()).isEqualTo(4);
        assertThat(add.out()).contains("parked for approval");
        var bad = cli.run("dns", "record", "add", "cli", "--zone", "x;id", "--type", "A", "--ttl", "60",
                "--data", "192.0.2.60", "--target", "ns5");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.out()).contains("invalid_params");
        var help = cli.run("dns", "--help");
        assertThat(help.out()).contains("zone").contains("record").contains("server").contains("operation");
    }
}
