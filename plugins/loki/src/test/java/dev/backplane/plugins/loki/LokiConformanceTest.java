package dev.backplane.plugins.loki;

import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ClassFixture;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The connector conformance kit against the Loki replay server. */
class LokiConformanceTest extends ConnectorConformanceTest {

    @RegisterExtension
    static final ClassFixture<LokiReplay> LOKI = ClassFixture.of(LokiReplay::new);

    @Override
    protected Subject subject() {
        return new Subject(new LokiConnectorFactory(),
                new TargetSpec("loki", "loki", "127.0.0.1", LOKI.get().port(), Optional.empty(), true, Optional.empty(),
                        Optional.empty(), Map.of("scheme", "http", "org_id", LokiReplay.ORG)),
                new Credential(Map.of("username", LokiReplay.USER, "password", LokiReplay.PASSWORD)),
                new Credential(Map.of("username", LokiReplay.USER, "password", "not-the-password-42")),
                List.of(
                        sampleCall("loki.query.range", Map.of("query", "{env=\"prod\"} |= \"error\"")),
                        sampleCall("loki.about", Map.of()),
                        sampleCall("loki.query.instant", Map.of("query",
                                "sum by (app) (count_over_time({env=\"prod\"}[5m]))")),
                        sampleCall("loki.label.list", Map.of("since", "6h")),
                        sampleCall("loki.label.values", Map.of("name", "app")),
                        sampleCall("loki.series.list", Map.of("match", List.of("{env=\"prod\"}")))));
    }
}
