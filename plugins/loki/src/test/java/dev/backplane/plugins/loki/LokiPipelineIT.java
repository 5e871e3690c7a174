package dev.backplane.plugins.loki;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.OperationCalls;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The built plugin jar in a real kernel, against the Loki replay server: pipeline, errors and the CLI's loki verbs. */
class LokiPipelineIT extends PerTestTenant {

    private static final String CONNECTOR = "loki-3.x";
    private static LokiReplay loki;
    private final OperationCalls calls = new OperationCalls(kernel, CONNECTOR, LokiReplay.PASSWORD);

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        loki = setup.closeAfter(new LokiReplay());
        setup.pluginJar("loki.plugin.jar", "loki-3.x.jar");
    }

    private void target(String name, Map<String, Object> extras, String password) {
        kernel.registerTarget(admin, Map.of("name", name, "product", "loki", "host", "127.0.0.1", "port", loki.port(),
                "extras", extras));
        kernel.stageSecret(admin, name, Map.of("username", LokiReplay.USER, "password", password));
    }

    @Test
    void logsLabelsAndSeriesThroughThePipeline() throws Exception {
        target("logs1", Map.of("scheme", "http", "org_id", LokiReplay.ORG), LokiReplay.PASSWORD);
        kernel.enableConnector(admin, CONNECTOR);

        JsonNode lines = calls.call(operator, "loki.query.range", "logs1", Map.of("query",
                "{env=\"prod\"} |= \"error\"", "since", "2h"));
        assertThat(lines.path("status").asText()).as(lines.toString()).isEqualTo("ok");
        JsonNode rows = lines.path("result");
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).path("line").asText()).as("newest first by default").isEqualTo("GET / 200");
        assertThat(rows.get(0).path("timestamp").asText()).isEqualTo("2025-11-24T00:00:02.000000003Z");
        assertThat(rows.get(2).path("labels").path("app").asText()).isEqualTo("web");
        Map<String, String> sent = loki.queries.getLast();
        assertThat(sent).containsEntry("limit", "100").containsEntry("since", "2h");
        JsonNode forward = calls.call(operator, "loki.query.range", "logs1", Map.of("query", "{env=\"prod\"}",
                "direction", "forward", "limit", 3));
        assertThat(forward.path("result").get(0).path("line").asText()).isEqualTo("GET /x 500 error");
        assertThat(forward.path("extras").path("limit_reached").asBoolean()).isTrue();

        JsonNode metric = calls.call(operator, "loki.query.instant", "logs1", Map.of("query",
                "sum by (app) (count_over_time({env=\"prod\"} |= \"error\" [5m]))"));
        assertThat(metric.path("result").get(0).path("series").asText()).isEqualTo("{app=\"web\"}");
        assertThat(metric.path("result").get(0).path("value").asDouble()).isEqualTo(2.0);
        JsonNode matrix = calls.call(operator, "loki.query.range", "logs1", Map.of("query",
                "sum(rate({app=\"web\"}[1m]))", "step", "1m"));
        assertThat(matrix.path("extras").path("result_type").asText()).isEqualTo("matrix");
        assertThat(matrix.path("result").get(0).path("samples").asInt()).isEqualTo(2);

        assertThat(calls.call(operator, "loki.label.list", "logs1", Map.of()).path("result").findValuesAsText("name"))
                .containsExactly("app", "env");
        assertThat(calls.call(operator, "loki.label.values", "logs1", Map.of("name",
                "app")).path("result").findValuesAsText("value"))
                .containsExactly("db", "web");
        assertThat(calls.call(operator, "loki.series.list", "logs1", Map.of("match",
                List.of("{env=\"prod\"}"))).path("result"))
                .hasSize(2);

        JsonNode fp = calls.probe(operator, "logs1");
        assertThat(fp.path("product").asText()).isEqualTo("loki");
        assertThat(fp.path("version").asText()).isEqualTo("3.4.2");
    }

    @Test
    void badInputAndRejectionsMapToCodes() throws Exception {
        target("logs2", Map.of("scheme", "http", "org_id", LokiReplay.ORG), LokiReplay.PASSWORD);
        target("no-org", Map.of("scheme", "http"), LokiReplay.PASSWORD);
        target("bad-pass", Map.of("scheme", "http", "org_id", LokiReplay.ORG), "not-the-password-42");
        kernel.enableConnector(admin, CONNECTOR);

        JsonNode parse = calls.call(operator, "loki.query.range", "logs2", Map.of("query", "rate oops"));
        assertThat(parse.path("extras").path("error_code").asText()).as(parse.toString()).isEqualTo("invalid_params");
        assertThat(parse.toString()).as("Loki's own words").contains("parse error");
        for (Map<String, Object> bad : List.<Map<String, Object>>of(Map.of(), Map.of("query", "{a=\"b\"}", "limit", 5001),
                Map.of("query", "{a=\"b\"}", "since", "forever"), Map.of("query", "{a=\"b\"}", "direction", "sideways"))) {
            assertThat(calls.call(operator, "loki.query.range", "logs2", bad).path("extras").path("error_code")
                    .asText()).as(bad.toString())
                    .isEqualTo("invalid_params");
        }
        assertThat(calls.call(operator, "loki.about", "no-org", Map.of()).path("extras").path("error_code").asText())
                .as("a multi-tenant Loki refuses a request without the tenant").isEqualTo("connector_auth_failed");
        JsonNode rejected = calls.call(operator, "loki.about", "bad-pass", Map.of());
        assertThat(rejected.path("extras").path("error_code").asText()).isEqualTo("connector_auth_failed");
        assertThat(rejected.toString()).doesNotContain("not-the-password-42");
    }

    @Test
    void theCliHasTheLokiFamilyVerbs() throws Exception {
        target("cli-logs", Map.of("scheme", "http", "org_id", LokiReplay.ORG), LokiReplay.PASSWORD);
        kernel.enableConnector(admin, CONNECTOR);
        CliRunner cli = kernel.cli(TempDirs.create("svc-cli"), operator);
        var lines = cli.run("loki", "query", "range", "--query", "{env=\"prod\"} |= \"error\"", "--since", "1h",
                "--target", "cli-logs");
        assertThat(lines.exitCode()).as(lines.toString()).isZero();
        assertThat(lines.out()).contains("TIMESTAMP").contains("LINE").contains("slow query error");
        var values = cli.run("loki", "label", "values", "app", "--target", "cli-logs");
        assertThat(values.out()).as(values.toString()).contains("web").contains("db");
        var help = cli.run("loki", "--help");
        assertThat(help.out()).contains("query").contains("label").contains("series").contains("about");
        var bad = cli.run("loki", "query", "range", "--query", "{a=\"b\"}", "--limit", "0", "--target", "cli-logs");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.out()).contains("invalid_params");
    }
}
