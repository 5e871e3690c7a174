package dev.backplane.plugins.prometheus;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The connector conformance kit against a real Prometheus behind HTTP Basic (plain HTTP on loopback). */
class PrometheusConformanceTest extends ConnectorConformanceTest {

    private static PromServers servers;

    @BeforeAll
    static void start() throws Exception {
        servers = PromServers.start(Files.createTempDirectory("svc-prom-conformance"), false);
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    @Override
    protected ConnectorFactory factory() {
        return new PrometheusConnectorFactory();
    }

    @Override
    protected TargetSpec reachableTarget() {
        return new TargetSpec("prom", "prometheus", "127.0.0.1", servers.prometheusPort(), Optional.empty(), true,
                Optional.empty(), Optional.empty(), Map.of("scheme", "http"));
    }

    @Override
    protected Credential goodCredential() {
        return new Credential(Map.of("username", PromServers.USER, "password", PromServers.PASSWORD));
    }

    @Override
    protected Credential rejectedCredential() {
        return new Credential(Map.of("username", PromServers.USER, "password", "not-the-password-42"));
    }

    @Override
    protected List<OperationRequest> sampleCalls() {
        return List.of(
                sampleCall("prometheus.query.instant", Map.of("query", "up")),
                sampleCall("prometheus.about", Map.of()),
                sampleCall("prometheus.query.range", Map.of("query", "up", "start", String.valueOf(
                        System.currentTimeMillis() / 1000 - 60), "end", String.valueOf(System.currentTimeMillis() / 1000),
                        "step", "15s")),
                sampleCall("prometheus.series.list", Map.of("match", List.of("up"))),
                sampleCall("prometheus.label.list", Map.of()),
                sampleCall("prometheus.label.values", Map.of("name", "job")),
                sampleCall("prometheus.target.list", Map.of("state", "any")),
                sampleCall("prometheus.alert.list", Map.of()),
                sampleCall("prometheus.rule.list", Map.of()));
    }
}
