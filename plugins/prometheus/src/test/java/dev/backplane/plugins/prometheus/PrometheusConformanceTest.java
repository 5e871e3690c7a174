package dev.backplane.plugins.prometheus;

import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ClassFixture;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The connector conformance kit against a real Prometheus behind HTTP Basic (plain HTTP on loopback). */
class PrometheusConformanceTest extends ConnectorConformanceTest {

    @RegisterExtension
    static final ClassFixture<PromServers> SERVERS = ClassFixture.of(
            () -> PromServers.start(TempDirs.create("svc-prom-conformance"), false));

    @Override
    protected Subject subject() {
        long now = System.currentTimeMillis() / 1000;
        return new Subject(new PrometheusConnectorFactory(),
                new TargetSpec("prom", "prometheus", "127.0.0.1", SERVERS.get().prometheusPort(), Optional.empty(), true,
                        Optional.empty(), Optional.empty(), Map.of("scheme", "http")),
                new Credential(Map.of("username", PromServers.USER, "password", PromServers.PASSWORD)),
                new Credential(Map.of("username", PromServers.USER, "password", "not-the-password-42")),
                List.of(
                        sampleCall("prometheus.query.instant", Map.of("query", "up")),
                        sampleCall("prometheus.about", Map.of()),
                        sampleCall("prometheus.query.range", Map.of("query", "up", "start", String.valueOf(now - 60),
                                "end", String.valueOf(now), "step", "15s")),
                        sampleCall("prometheus.series.list", Map.of("match", List.of("up"))),
                        sampleCall("prometheus.label.list", Map.of()),
                        sampleCall("prometheus.label.values", Map.of("name", "job")),
                        sampleCall("prometheus.target.list", Map.of("state", "any")),
                        sampleCall("prometheus.alert.list", Map.of()),
                        sampleCall("prometheus.rule.list", Map.of())));
    }
}
