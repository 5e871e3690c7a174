package dev.backplane.plugins.dns;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.plugins.ssh.SshLab;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Topology discovery of a real named through a real sshd: {@code svc topology refresh} on a {@code bind} target
 * reads the zones and records through the dispatch pipeline and writes auto edges — zones belong-to the server,
 * A/AAAA records resolve-to their hosts, a CNAME resolves-to the record it names — and the path from a CNAME to
 * its address is a topology query.
 */
@KernelTest
class DnsTopologyIT {

    private static final String CONNECTOR = "dns-ssh-9.x";
    private static Optional<String> unavailable = Optional.empty();
    private static SshLab ssh;
    private static BindLab bind;
    private static TestIssuer issuer;
    private static TestKernel kernel;

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        setup.setting("SVC_TOPOLOGY_REFRESH_INTERVAL_MINUTES", "0");
        setup.pluginJar("dns.plugin.jar", "dns-ssh-9.x.jar");
        unavailable = SshLab.unavailable().or(BindLab::unavailable);
        if (unavailable.isEmpty()) {
            Path dir = TempDirs.create("dns-topology");
            ssh = setup.closeAfter(SshLab.start(dir.resolve("ssh")));
            bind = setup.closeAfter(BindLab.start(dir.resolve("bind")));
        }
    }

    @Test
    void refreshReadsZonesAndRecordsIntoEdges() throws Exception {
        Assumptions.assumeTrue(unavailable.isEmpty(), unavailable.orElse("") + "; not run");
        UUID tenant = UUID.randomUUID();
        String admin = issuer.tenantAdmin(tenant);
        Map<String, Object> extras = new HashMap<>(bind.extras());
        extras.put("ssh_host_key", ssh.hostKeyLine());
        kernel.registerTarget(admin, Map.of("name", "ns-topo", "product", "bind", "host", "127.0.0.1", "port", ssh.port(),
                "extras", extras));
        kernel.stageSecret(admin, "ns-topo", Map.of("username", ssh.user(), "private_key", ssh.privateKey()));

        var refused = kernel.post("/api/v1/topology/refresh", admin, Map.of("target", "ns-topo"));
        assertThat(refused.status()).as("reads not enabled yet: default-deny").isEqualTo(409);
        assertThat(refused.json().path("extras").path("error_code").asText()).isEqualTo("operation_not_enabled");

        kernel.enableConnector(admin, CONNECTOR);
        var refreshed = kernel.post("/api/v1/topology/refresh", admin, Map.of("target", "ns-topo"));
        assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);
        assertThat(refreshed.body()).doesNotContain("PRIVATE KEY");
        List<String> edges = new ArrayList<>();
        kernel.get("/api/v1/topology/edges?source=auto&limit=1000", issuer.operator(tenant)).json().path("edges")
                .forEach(e -> edges.add(e.path("from").asText() + " " + e.path("kind").asText() + " " + e.path("to").asText()));
        assertThat(edges).contains("example.test belongs-to ns-topo", "static.test belongs-to ns-topo",
                "www.example.test resolves-to 192.0.2.10", "www.example.test resolves-to 2001:db8::10",
                "ftp.example.test resolves-to www.example.test", "www.example.test belongs-to example.test",
                "ns1.static.test resolves-to 192.0.2.2");
        assertThat(edges).noneMatch(e -> e.startsWith("txt.example.test") || e.startsWith("mail.example.test"));
        JsonNode path = kernel.get("/api/v1/topology/path?from=ftp.example.test&to=192.0.2.10", issuer.operator(tenant))
                .json();
        assertThat(path.path("hops")).as(path.toString()).hasSize(2);
        String audit = kernel.get("/api/v1/audit?limit=50", admin).body();
        assertThat(audit).contains("dns.zone.list", "dns.zone.show");
    }
}
