package dev.backplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The ServiceMonitor, the PrometheusRule and the Grafana dashboard (the "ha" value set turns them on). */
class ChartMonitoringTest {

    /** The contract's alerts and their severities. */
    static final Map<String, String> ALERTS = Map.of("SvcAuditWritesFailing", "critical",
            "SvcDispatchErrorRatioHigh", "warning", "SvcEventDrainLagging", "warning", "SvcSchedulerLagging", "warning",
            "SvcReplicasBelowQuorum", "critical", "SvcIdentityKeyFetchFailing", "critical",
            "SvcPluginsBroken", "warning", "SvcDatabasePoolExhausted", "warning", "SvcAuditRetentionBlocked", "warning",
            "SvcAuditChainLagging", "warning");

    /** The series the alerts may use: the contract's list, plus Prometheus' own up. */
    static final Set<String> ALERT_SERIES = Set.of("svc_audit_write_failures_total", "svc_dispatch_calls_seconds_count",
            "svc_events_drain_lag_seconds", "svc_scheduler_lag_seconds", "svc_identity_key_fetch_failures_total",
            "svc_plugins_broken", "hikaricp_connections_pending", "hikaricp_connections_timeout_total",
            "svc_audit_retention_blocked", "svc_audit_chain_lag_seconds", "up");

    /** The series the dashboard may use: the alerts', and those docs/guide/operations.md lists. */
    static final Set<String> DASHBOARD_SERIES = union(ALERT_SERIES, Set.of("http_server_requests_seconds_count",
            "http_server_requests_seconds_bucket", "svc_dispatch_stage_seconds_bucket", "svc_events_ingest_total",
            "svc_approvals_pending", "svc_background_jobs", "svc_agent_runs", "hikaricp_connections_active",
            "svc_retrieval_search_seconds_bucket", "jvm_memory_used_bytes", "process_cpu_usage"));

    static final Set<String> PROMQL_WORDS = Set.of("sum", "max", "min", "avg", "count", "by", "without", "on",
            "ignoring", "group_left", "group_right", "and", "or", "unless", "bool", "offset", "rate", "increase",
            "vector", "histogram_quantile", "le", "inf", "nan");

    static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.addAll(b);
        return out;
    }

    /** The metric names an expression reads: label matchers, grouping labels, ranges and strings removed. */
    static Set<String> series(String expr) {
        String e = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*").matcher(e);
        while (m.find()) {
            String word = m.group();
            int after = m.end();
            while (after < e.length() && Character.isWhitespace(e.charAt(after))) {
                after++;
            }
            if (after < e.length() && e.charAt(after) == '(') {
                continue; // a function
            }
            if (!PROMQL_WORDS.contains(word.toLowerCase(Locale.ROOT))) {
                out.add(word);
            }
        }
        return out;
    }

    static Map<String, JsonNode> byKind(String set) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (JsonNode d : Chart.documents(Chart.render(set))) {
            out.put(d.path("kind").asText() + "/" + d.path("metadata").path("name").asText(), d);
        }
        return out;
    }

    @Test
    void theSeriesFinderFindsMetricNamesOnly() {
        assertThat(series("sum by (pod) (rate(a_total{job=\"x\", status=~\"ok|error\"}[5m])) / max(b) > 0.1 "
                + "or on() vector(0)")).containsExactly("a_total", "b");
    }

    @Test
    void theServiceMonitorScrapesTheManagementService() {
        Map<String, JsonNode> docs = byKind("ha");
        JsonNode sm = docs.get("ServiceMonitor/svc-svc-backplane");
        assertThat(sm).isNotNull();
        assertThat(sm.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(sm.path("metadata").path("labels").path("release").asText()).isEqualTo("kube-prometheus-stack");
        JsonNode svc = docs.get("Service/svc-svc-backplane-management");
        JsonNode api = docs.get("Service/svc-svc-backplane");
        JsonNode selector = sm.path("spec").path("selector").path("matchLabels");
        assertThat(selector.size()).isPositive();
        selector.fields().forEachRemaining(e -> {
            assertThat(svc.path("metadata").path("labels").path(e.getKey()).asText()).isEqualTo(e.getValue().asText());
        });
        assertThat(matches(selector, api.path("metadata").path("labels"))).as("the API Service is not scraped").isFalse();
        assertThat(sm.path("spec").path("namespaceSelector").path("matchNames").get(0).asText()).isEqualTo(Chart.NAMESPACE);
        JsonNode ep = sm.path("spec").path("endpoints").get(0);
        assertThat(ep.path("port").asText()).isEqualTo(svc.path("spec").path("ports").get(0).path("name").asText());
        assertThat(ep.path("path").asText()).isEqualTo("/metrics");
        assertThat(ep.path("interval").asText()).matches("[0-9]+(ms|s|m|h)");
        assertThat(fieldNames(ep)).isSubsetOf("port", "path", "interval", "scheme");
        assertThat(fieldNames(sm.path("spec"))).isSubsetOf("selector", "namespaceSelector", "endpoints");
    }

    @Test
    void thePrometheusRuleHasExactlyTheContractsAlertsOverRealSeries() {
        JsonNode rule = byKind("ha").get("PrometheusRule/svc-svc-backplane");
        assertThat(rule).isNotNull();
        assertThat(rule.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(fieldNames(rule.path("spec"))).containsExactly("groups");
        Map<String, JsonNode> alerts = new LinkedHashMap<>();
        for (JsonNode g : rule.path("spec").path("groups")) {
            assertThat(g.path("name").asText()).isNotBlank();
            assertThat(fieldNames(g)).isSubsetOf("name", "interval", "rules");
            for (JsonNode r : g.path("rules")) {
                assertThat(alerts.put(r.path("alert").asText(), r)).as("alert named twice").isNull();
            }
        }
        assertThat(alerts.keySet()).containsExactlyInAnyOrderElementsOf(ALERTS.keySet());
        List<String> unknownSeries = new ArrayList<>();
        alerts.forEach((name, r) -> {
            assertThat(fieldNames(r)).as(name).isSubsetOf("alert", "expr", "for", "labels", "annotations");
            assertThat(r.path("for").asText()).as(name + " for").matches("[0-9]+[smh]");
            assertThat(r.path("labels").path("severity").asText()).as(name).isEqualTo(ALERTS.get(name));
            JsonNode a = r.path("annotations");
            assertThat(a.path("summary").asText()).as(name).isNotBlank();
            assertThat(a.path("description").asText()).as(name).isNotBlank();
            assertThat(a.path("runbook_url").asText()).as(name)
                    .endsWith("docs/operations/monitoring.md#" + name.toLowerCase(Locale.ROOT));
            String expr = r.path("expr").asText();
            assertThat(expr).as(name + " is scoped to the release's scrape job")
                    .contains("job=\"svc-svc-backplane-management\"").contains("namespace=\"svc\"");
            assertThat(balanced(expr)).as(name + ": balanced brackets in " + expr).isTrue();
            Set<String> used = series(expr);
            assertThat(used).as(name).isNotEmpty();
            used.stream().filter(s -> !ALERT_SERIES.contains(s)).forEach(s -> unknownSeries.add(name + ": " + s));
        });
        assertThat(unknownSeries).as("series no kernel metric (or up) provides").isEmpty();
        // 3 replicas under the HPA: a majority is 2
        assertThat(alerts.get("SvcReplicasBelowQuorum").path("expr").asText()).endsWith("< 2");
    }

    @Test
    void theDashboardIsTheChartsFileLabelledForTheSidecarOverRealSeries() throws IOException {
        JsonNode cm = byKind("ha").get("ConfigMap/svc-svc-backplane-dashboard");
        assertThat(cm).isNotNull();
        assertThat(cm.path("metadata").path("labels").path("grafana_dashboard").asText()).isEqualTo("1");
        assertThat(cm.path("metadata").path("namespace").asText()).isEqualTo("monitoring");
        String json = cm.path("data").path("svc-backplane.json").asText();
        assertThat(json).isEqualTo(java.nio.file.Files.readString(Chart.DIR.resolve("dashboards/svc-backplane.json")).strip());
        JsonNode dash = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        assertThat(dash.path("uid").asText()).isEqualTo("svc-backplane");
        List<String> unknown = new ArrayList<>();
        int exprs = 0;
        for (JsonNode p : dash.path("panels")) {
            assertThat(p.path("title").asText()).isNotBlank();
            for (JsonNode t : p.path("targets")) {
                exprs++;
                series(t.path("expr").asText()).stream().filter(s -> !DASHBOARD_SERIES.contains(s))
                        .forEach(s -> unknown.add(p.path("title").asText() + ": " + s));
            }
        }
        assertThat(exprs).isGreaterThan(10);
        assertThat(unknown).as("dashboard series no kernel metric provides").isEmpty();
    }

    @Test
    void monitoringIsOffByDefault() {
        assertThat(byKind("minimal").keySet()).noneMatch(k -> k.startsWith("ServiceMonitor/")
                || k.startsWith("PrometheusRule/") || k.endsWith("-dashboard"));
    }

    static boolean matches(JsonNode selector, JsonNode labels) {
        var it = selector.fields();
        while (it.hasNext()) {
            var e = it.next();
            if (!labels.path(e.getKey()).asText().equals(e.getValue().asText())) {
                return false;
            }
        }
        return true;
    }

    static List<String> fieldNames(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    static boolean balanced(String s) {
        int round = 0;
        int curly = 0;
        int square = 0;
        for (char c : s.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "").toCharArray()) {
            switch (c) {
                case '(' -> round++;
                case ')' -> round--;
                case '{' -> curly++;
                case '}' -> curly--;
                case '[' -> square++;
                case ']' -> square--;
                default -> { }
            }
            if (round < 0 || curly < 0 || square < 0) {
                return false;
            }
        }
        return round == 0 && curly == 0 && square == 0;
    }
}
