package dev.backplane.plugins.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.OperationCalls;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The built plugin jar loaded by a real kernel, driving a real Prometheus and Alertmanager over TLS
 * with HTTP Basic through the whole pipeline (gate, credentials, egress, reduction, approvals, audit)
 * and through the CLI's family verbs.
 */
class PrometheusPipelineIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONNECTOR = "prometheus-2.x";
    private static PromServers servers;
    private final OperationCalls calls = new OperationCalls(kernel, CONNECTOR, PromServers.PASSWORD);

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        setup.pluginJar("prometheus.plugin.jar", "prometheus-2.x.jar");
        if (!PromServers.installed()) {
            return; // every test skips (needsTheServers)
        }
        servers = setup.closeAfter(PromServers.start(setup.work().resolve("prom"), true));
        // the scrapes, the rule and the alert's way to Alertmanager take a few seconds after start
        PromServers.await("both scrape targets seen", () -> scrapedTargets() == 2);
        PromServers.await("AlwaysFiring in Alertmanager", () -> body(servers.alertmanagerPort(), "/api/v2/alerts")
                .contains("AlwaysFiring"));
    }

    @BeforeEach
    void needsTheServers() {
        Assumptions.assumeTrue(PromServers.installed(), PromServers.NOT_INSTALLED);
    }

    private static int scrapedTargets() {
        try {
            JsonNode t = JSON.readTree(servers.get(servers.prometheusPort(), "/api/v1/targets")).path("data")
                    .path("activeTargets");
            int seen = 0;
            for (JsonNode x : t) {
                seen += x.path("health").asText().equals("unknown") ? 0 : 1;
            }
            return seen;
        } catch (Exception e) {
            return -1;
        }
    }

    private static String body(int port, String path) {
        try {
            return servers.get(port, path);
        } catch (Exception e) {
            return "";
        }
    }

    private void target(String name, String product, String host, int port, Map<String, Object> extra, String password) {
        Map<String, Object> body = new HashMap<>(Map.of("name", name, "product", product, "host", host, "port", port,
                "tls_ca_pin", servers.certificatePem()));
        body.putAll(extra);
        kernel.registerTarget(admin, body);
        kernel.stageSecret(admin, name, Map.of("username", PromServers.USER, "password", password));
    }

    private void prometheus(String name) {
        target(name, "prometheus", "localhost", servers.prometheusPort(), Map.of(), PromServers.PASSWORD);
    }

    private void alertmanager(String name) {
        target(name, "alertmanager", "localhost", servers.alertmanagerPort(), Map.of(), PromServers.PASSWORD);
    }

    private JsonNode ok(String op, String target, Map<String, Object> params) throws Exception {
        JsonNode r = calls.call(operator, op, target, params);
        assertThat(r.path("status").asText()).as(op + ": " + r).isEqualTo("ok");
        return r;
    }

    /** One top-level field of every row (findValuesAsText would also find the nested labels' fields). */
    private static List<String> column(JsonNode rows, String field) {
        List<String> out = new java.util.ArrayList<>();
        rows.forEach(r -> out.add(r.path(field).asText()));
        return out;
    }

    @Test
    void everyReadWorksThroughThePipelineAgainstRealServers() throws Exception {
        prometheus("p1");
        alertmanager("am1");
        kernel.enableConnector(admin, CONNECTOR);

        JsonNode up = ok("prometheus.query.instant", "p1", Map.of("query", "up")).path("result");
        assertThat(up.findValuesAsText("series")).anyMatch(s -> s.startsWith("up{") && s.contains("job=\"prometheus\""))
                .anyMatch(s -> s.contains("job=\"dead\""));
        for (JsonNode row : up) {
            assertThat(row.path("value").asDouble()).isEqualTo(row.path("labels").path("job").asText()
                    .equals("dead") ? 0.0 : 1.0);
        }
        long now = Instant.now().getEpochSecond();
        JsonNode range = ok("prometheus.query.range", "p1", Map.of("query", "up{job=\"prometheus\"}", "start",
                String.valueOf(now - 30), "end", String.valueOf(now), "step", "1s"));
        assertThat(range.path("extras").path("result_type").asText()).isEqualTo("matrix");
        assertThat(range.path("result").get(0).path("samples").asInt()).isPositive();
        assertThat(range.path("result").get(0).path("values").get(0).get(0).asText()).endsWith("Z");
        assertThat(ok("prometheus.query.instant", "p1", Map.of("query", "1 + 1")).path("result").get(0).path("value")
                .asDouble()).isEqualTo(2.0);

        assertThat(ok("prometheus.series.list", "p1", Map.of("match", List.of("up"))).path("result")).hasSize(2);
        assertThat(ok("prometheus.label.list", "p1", Map.of()).path("result").findValuesAsText("name"))
                .contains("job", "instance", "__name__");
        assertThat(ok("prometheus.label.values", "p1", Map.of("name", "job")).path("result").findValuesAsText("value"))
                .contains("prometheus", "dead");

        JsonNode targets = ok("prometheus.target.list", "p1", Map.of()).path("result");
        assertThat(column(targets, "job")).containsExactlyInAnyOrder("prometheus", "dead");
        JsonNode down = ok("prometheus.target.list", "p1", Map.of("health", "down")).path("result");
        assertThat(down).hasSize(1);
        assertThat(down.get(0).path("job").asText()).isEqualTo("dead");
        assertThat(down.get(0).path("last_error").asText()).isNotBlank();

        JsonNode alerts = ok("prometheus.alert.list", "p1", Map.of("state", "firing")).path("result");
        assertThat(alerts.findValuesAsText("alertname")).contains("AlwaysFiring");
        JsonNode rules = ok("prometheus.rule.list", "p1", Map.of()).path("result");
        assertThat(column(rules, "type")).containsExactlyInAnyOrder("alert", "record");
        assertThat(ok("prometheus.rule.list", "p1", Map.of("type", "record")).path("result").get(0).path("name")
                .asText()).isEqualTo("job:up:sum");

        JsonNode about = ok("prometheus.about", "p1", Map.of()).path("result");
        assertThat(about.path("version").asText()).startsWith("2.");
        assertThat(about.path("start_time").asText()).isNotBlank();
        JsonNode amAbout = ok("prometheus.about", "am1", Map.of()).path("result");
        assertThat(amAbout.path("product").asText()).isEqualTo("alertmanager");
        assertThat(amAbout.toString()).as("never the config: it holds receivers' secrets").doesNotContain("devnull");

        JsonNode amAlerts = ok("prometheus.am-alert.list", "am1", Map.of("filter", List.of("alertname=AlwaysFiring")))
                .path("result");
        assertThat(amAlerts).hasSize(1);
        assertThat(amAlerts.get(0).path("receivers").asText()).isEqualTo("devnull");
        assertThat(ok("prometheus.silence.list", "am1", Map.of()).path("status").asText()).isEqualTo("ok");

        calls.probe(operator, "p1", "Prometheus", "prometheus", "2\\.[0-9]+\\.[0-9]+", "GET /api/v1/status/buildinfo");
        JsonNode amFp = calls.probe(operator, "am1");
        assertThat(amFp.path("product").asText()).isEqualTo("alertmanager");
        assertThat(amFp.path("version").asText()).matches("0\\.[0-9]+\\.[0-9]+");
    }

    @Test
    void badInputIsInvalidParamsAndFailuresMapToCodes() throws Exception {
        prometheus("b1");
        alertmanager("bam1");
        kernel.enableConnector(admin, CONNECTOR);

        JsonNode badQuery = calls.call(operator, "prometheus.query.instant", "b1", Map.of("query", "sum(up"));
        assertThat(badQuery.path("status").asText()).isEqualTo("error");
        assertThat(badQuery.path("extras").path("error_code").asText()).as(badQuery.toString())
                .isEqualTo("invalid_params");
        assertThat(badQuery.toString()).as("Prometheus' own words").contains("parse error");

        long now = Instant.now().getEpochSecond();
        JsonNode tooMany = calls.call(operator, "prometheus.query.range", "b1", Map.of("query", "up", "start",
                String.valueOf(now - 86_400), "end", String.valueOf(now), "step", "1s"));
        assertThat(tooMany.path("extras").path("error_code").asText()).as(tooMany.toString()).isEqualTo("invalid_params");
        assertThat(tooMany.toString()).contains("11000");
        JsonNode backwards = calls.call(operator, "prometheus.query.range", "b1", Map.of("query", "up", "start",
                String.valueOf(now), "end", String.valueOf(now - 60), "step", "1s"));
        assertThat(backwards.path("extras").path("error_code").asText()).isEqualTo("invalid_params");
        for (Map<String, Object> bad : List.<Map<String, Object>>of(Map.of(), Map.of("query", ""),
                Map.of("query", "up", "time", "yesterday"), Map.of("query", "up", "extra", 1))) {
            JsonNode r = calls.call(operator, "prometheus.query.instant", "b1", bad);
            assertThat(r.path("extras").path("error_code").asText()).as(bad.toString()).isEqualTo("invalid_params");
        }
        JsonNode wrongProduct = calls.call(operator, "prometheus.silence.list", "b1", Map.of());
        assertThat(wrongProduct.path("extras").path("error_code").asText()).isEqualTo("invalid_params");
        assertThat(wrongProduct.toString()).contains("needs an alertmanager target");
        JsonNode wrongProduct2 = calls.call(operator, "prometheus.query.instant", "bam1", Map.of("query", "up"));
        assertThat(wrongProduct2.toString()).contains("needs a prometheus target");

        target("wrong-pass", "prometheus", "localhost", servers.prometheusPort(), Map.of(), "not-the-password-42");
        JsonNode rejected = calls.call(operator, "prometheus.query.instant", "wrong-pass", Map.of("query", "up"));
        assertThat(rejected.path("extras").path("error_code").asText()).isEqualTo("connector_auth_failed");
        assertThat(rejected.toString()).doesNotContain("not-the-password-42");

        target("by-ip", "prometheus", "127.0.0.1", servers.prometheusPort(), Map.of(), PromServers.PASSWORD);
        JsonNode mismatch = calls.call(operator, "prometheus.about", "by-ip", Map.of());
        assertThat(mismatch.path("extras").path("error_code").asText()).as("the certificate names localhost only")
                .isEqualTo("connector_tls_verify_failed");
        assertThat(kernel.send("PATCH", "/api/v1/targets/by-ip", admin, "{\"tls_server_name\": \"localhost\"}", Map.of())
                .status()).isEqualTo(200);
        assertThat(calls.call(operator, "prometheus.about", "by-ip", Map.of()).path("status").asText()).isEqualTo("ok");

        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        target("gone", "prometheus", "localhost", closed, Map.of(), PromServers.PASSWORD);
        assertThat(calls.call(operator, "prometheus.about", "gone",
                Map.of()).path("extras").path("error_code").asText())
                .isEqualTo("connector_unreachable");
    }

    @Test
    void silencesParkForApprovalRunWhenASecondAdminApprovesAndAreReadBack() throws Exception {
        alertmanager("w1");
        kernel.enableConnector(admin, CONNECTOR);
        calls.enable(admin, "prometheus.silence.create", "prometheus.silence.expire");
        String comment = "maintenance " + UUID.randomUUID();

        JsonNode parked = calls.call(operator, "prometheus.silence.create", "w1", Map.of("matchers",
                List.of("alertname=AlwaysFiring", "severity=~\"warn.*\""), "duration", "1h", "comment", comment),
                Map.of("work_ref", "CHG-7"));
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        assertThat(body(servers.alertmanagerPort(), "/api/v2/silences")).as("nothing sent while parked")
                .doesNotContain(comment);
        String id = parked.path("extras").path("approval_request_id").asText();
        assertThat(kernel.send("POST", "/api/v1/approvals/" + id + "/approve", operator, "{}", Map.of()).status())
                .as("an operator cannot approve").isEqualTo(403);
        var approved = kernel.send("POST", "/api/v1/approvals/" + id + "/approve", admin2, "{\"reason\": \"ok\"}", Map.of());
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        JsonNode silence = approved.json().path("result").path("result");
        assertThat(approved.json().path("result").path("status").asText()).as(approved.body()).isEqualTo("ok");
        assertThat(silence.path("state").asText()).isEqualTo("active");
        assertThat(silence.path("matchers").asText()).isEqualTo("alertname=\"AlwaysFiring\", severity=~\"warn.*\"");
        String silenceId = silence.path("id").asText();
        assertThat(body(servers.alertmanagerPort(), "/api/v2/silence/" + silenceId)).contains(comment)
                .contains("svc backplane");
        JsonNode listed = ok("prometheus.silence.list", "w1", Map.of("state", "active")).path("result");
        assertThat(listed.findValuesAsText("id")).contains(silenceId);

        JsonNode matchAll = calls.call(operator, "prometheus.silence.create", "w1", Map.of("matchers",
                List.of("alertname=~.*"),
                "duration", "1h", "comment", "everything"));
        var refused = kernel.send("POST", "/api/v1/approvals/" + matchAll.path("extras").path("approval_request_id")
                .asText() + "/approve", admin, "{}", Map.of());
        assertThat(refused.json().path("result").path("extras").path("error_code").asText()).as(refused.body())
                .isEqualTo("invalid_params");
        JsonNode tooLong = calls.call(operator, "prometheus.silence.create", "w1", Map.of("matchers",
                List.of("alertname=X"), "duration", "31d", "comment", "long"));
        var tooLongRun = kernel.send("POST", "/api/v1/approvals/" + tooLong.path("extras").path("approval_request_id")
                .asText() + "/approve", admin, "{}", Map.of());
        assertThat(tooLongRun.json().path("result").path("extras").path("error_code").asText()).as(tooLongRun.body())
                .isEqualTo("invalid_params");
        JsonNode badMatcher = calls.call(operator, "prometheus.silence.create", "w1", Map.of("matchers",
                List.of("no matcher"),
                "duration", "1h", "comment", "x"));
        assertThat(badMatcher.path("extras").path("error_code").asText()).as("the schema refuses it before approval")
                .isEqualTo("invalid_params");

        JsonNode expire = calls.call(operator, "prometheus.silence.expire", "w1", Map.of("id", silenceId));
        assertThat(expire.path("status").asText()).isEqualTo("awaiting_approval");
        var expired = kernel.send("POST", "/api/v1/approvals/" + expire.path("extras").path("approval_request_id")
                .asText() + "/approve", admin2, "{}", Map.of());
        assertThat(expired.json().path("result").path("result").path("state").asText()).as(expired.body())
                .isEqualTo("expired");
        JsonNode unknown = calls.call(operator, "prometheus.silence.expire", "w1", Map.of("id",
                UUID.randomUUID().toString()));
        var unknownRun = kernel.send("POST", "/api/v1/approvals/" + unknown.path("extras").path("approval_request_id")
                .asText() + "/approve", admin2, "{}", Map.of());
        assertThat(unknownRun.json().path("result").path("status").asText()).as(unknownRun.body()).isEqualTo("error");

        var audit = kernel.get("/api/v1/audit?target=w1&limit=100", admin);
        assertThat(audit.status()).as(audit.body()).isEqualTo(200);
        assertThat(audit.body()).contains("prometheus.silence.create").contains("prometheus.silence.expire")
                .contains("CHG-7").doesNotContain(PromServers.PASSWORD);
    }

    @Test
    void theCliHasThePrometheusFamilyVerbs() throws Exception {
        prometheus("cli-p");
        alertmanager("cli-am");
        Path home = TempDirs.create("svc-cli");
        CliRunner cli = kernel.cli(home, admin);
        var listed = cli.run("connector", "list");
        assertThat(listed.out()).as(listed.toString()).contains(CONNECTOR).contains("staged");
        kernel.enableConnector(admin, CONNECTOR);
        CliRunner op = kernel.cli(home, operator);

        var up = op.run("prometheus", "query", "instant", "--query", "up", "--target", "cli-p");
        assertThat(up.exitCode()).as(up.toString()).isZero();
        assertThat(up.out()).contains("SERIES").contains("VALUE").contains("up{");
        var values = op.run("prometheus", "label", "values", "job", "--target", "cli-p");
        assertThat(values.out()).as(values.toString()).contains("prometheus").contains("dead");
        var json = op.run("prometheus", "target", "list", "--health", "down", "--target", "cli-p", "--json");
        JsonNode env = JSON.readTree(json.out());
        assertThat(env.path("result").get(0).path("job").asText()).as(json.toString()).isEqualTo("dead");
        assertThat(env.has("extras")).as("--json prints the full envelope").isTrue();
        var series = op.run("prometheus", "series", "list", "--match", "up", "--target", "cli-p");
        assertThat(series.out()).as(series.toString()).contains("job=\"dead\"");

        var help = op.run("prometheus", "--help");
        assertThat(help.out()).contains("query").contains("target").contains("rule").contains("alert")
                .contains("silence").contains("am-alert").contains("label").contains("series").contains("operation");

        var denied = op.run("prometheus", "silence", "create", "--matchers", "alertname=AlwaysFiring", "--duration", "1h",
                "--comment", "cli", "--target", "cli-am");
        assertThat(denied.exitCode()).as("writes are default-deny until reviewed").isEqualTo(3);
        calls.enable(admin, "prometheus.silence.create", "prometheus.silence.expire");
        var parked = op.run("prometheus", "silence", "create", "--matchers", "alertname=AlwaysFiring", "--duration", "1h",
                "--comment", "cli", "--target", "cli-am");
        assertThat(parked.exitCode()).as(parked.toString()).isEqualTo(4);
        assertThat(parked.out()).contains("parked for approval");
        var badRange = op.run("prometheus", "query", "range", "--query", "up", "--start", "1", "--end", "2", "--step", "x",
                "--target", "cli-p");
        assertThat(badRange.exitCode()).isEqualTo(1);
        assertThat(badRange.out()).contains("invalid_params");
    }
}
