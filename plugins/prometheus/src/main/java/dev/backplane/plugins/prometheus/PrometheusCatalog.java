package dev.backplane.plugins.prometheus;

import static dev.backplane.plugins.http.Catalogs.object;
import static dev.backplane.plugins.http.Catalogs.read;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.List;
import java.util.Set;

/**
 * The operations-monitoring family: Prometheus' HTTP API v1 reads (a {@code prometheus} target) and
 * Alertmanager's API v2 alerts and silences (an {@code alertmanager} target), with silence create and
 * expire as the approval-gated writes.
 */
final class PrometheusCatalog {

    /** A point in time: RFC 3339 or Unix seconds, as Prometheus takes it. */
    private static final String TIME = """
            {"type": "string", "pattern": "^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9]{2}:[0-9]{2})|[0-9]{1,12}(\\\\.[0-9]{1,3})?)$",
             "description": "RFC 3339 or Unix seconds"}""";
    /** A Prometheus duration such as 15s, 5m, 1h30m. */
    private static final String DURATION = "^([0-9]{1,6}(ms|s|m|h|d|w|y))+$";
    private static final String PROMQL = """
            {"type": "string", "minLength": 1, "maxLength": 10000, "description": "the PromQL expression"}""";
    private static final String MATCH = """
            {"type": "array", "minItems": 1, "maxItems": 20, "items": {"type": "string", "minLength": 1, "maxLength": 2000},
             "description": "series selectors, e.g. up or {job=\\"node\\"}"}""";
    static final String UUID = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";
    /** At most this many points per series in a range query (Prometheus' own limit is 11,000). */
    static final long MAX_POINTS = 11_000;

    /** Operations that need an {@code alertmanager} target; all others need a {@code prometheus} one. */
    static final Set<String> ALERTMANAGER_OPS = Set.of("prometheus.am-alert.list", "prometheus.silence.list",
            "prometheus.silence.create", "prometheus.silence.expire");

    private PrometheusCatalog() {
    }

    static final Catalog CATALOG = new Catalog(List.of(
            new OperationGroup("server", "Server", "Which Prometheus this is: version, build, start time, storage"),
            new OperationGroup("query", "Query", "PromQL at one instant or over a range; series, label names and "
                    + "label values"),
            new OperationGroup("scrape", "Scrape targets", "What Prometheus scrapes and whether each target is up"),
            new OperationGroup("alerting", "Alerting", "Alerting and recording rules and the alerts they raise "
                    + "(Prometheus), alerts and silences (Alertmanager)")),
            List.of(
                    read("prometheus.about", "server", "The server's version, build and runtime facts (Prometheus "
                            + "or Alertmanager)", object("", ""), "/api/v1/status/buildinfo", ResultKind.OBJECT),
                    read("prometheus.query.instant", "query", "Evaluate a PromQL expression at one instant (default "
                            + "now): one row per series with its labels and value", object("\"query\"",
                            "\"query\": " + PROMQL + ", \"time\": " + TIME + ", \"timeout\": {\"type\": \"string\", "
                                    + "\"pattern\": \"" + DURATION + "\", \"description\": \"evaluation timeout, e.g. 10s\"}"),
                            "/api/v1/query", ResultKind.SET),
                    read("prometheus.query.range", "query", "Evaluate a PromQL expression over a time range at a "
                            + "step: one row per series with its samples (at most " + MAX_POINTS + " points a series)",
                            object("\"query\", \"start\", \"end\", \"step\"", "\"query\": " + PROMQL + ", \"start\": "
                                    + TIME + ", \"end\": " + TIME + ", \"step\": {\"type\": \"string\", \"pattern\": \""
                                    + DURATION + "\", \"description\": \"resolution, e.g. 15s or 1m\"}, \"timeout\": "
                                    + "{\"type\": \"string\", \"pattern\": \"" + DURATION + "\"}"),
                            "/api/v1/query_range", ResultKind.SET),
                    read("prometheus.series.list", "query", "The series matching selectors (their label sets)",
                            object("\"match\"", "\"match\": " + MATCH + ", \"start\": " + TIME + ", \"end\": " + TIME),
                            "/api/v1/series", ResultKind.SET),
                    read("prometheus.label.list", "query", "Label names, optionally of the series matching selectors",
                            object("", "\"match\": " + MATCH + ", \"start\": " + TIME + ", \"end\": " + TIME),
                            "/api/v1/labels", ResultKind.SET),
                    read("prometheus.label.values", "query", "The values a label takes, e.g. every job or instance",
                            object("\"name\"", "\"name\": {\"type\": \"string\", \"pattern\": \"^[a-zA-Z_][a-zA-Z0-9_]{0,199}$\", "
                                    + "\"description\": \"the label name\"}, \"match\": " + MATCH + ", \"start\": " + TIME
                                    + ", \"end\": " + TIME), "/api/v1/label/{name}/values", ResultKind.SET),
                    read("prometheus.target.list", "scrape", "Scrape targets with job, instance, health, last scrape and "
                            + "last error", object("", "\"state\": {\"type\": \"string\", \"enum\": [\"active\", \"dropped\", "
                            + "\"any\"], \"description\": \"default active\"}, \"job\": {\"type\": \"string\", \"minLength\": 1, "
                            + "\"description\": \"only this job\"}, \"health\": {\"type\": \"string\", \"enum\": [\"up\", \"down\", "
                            + "\"unknown\"]}"), "/api/v1/targets", ResultKind.SET),
                    read("prometheus.alert.list", "alerting", "Alerts Prometheus' rules raise now (pending and firing)",
                            object("", "\"state\": {\"type\": \"string\", \"enum\": [\"pending\", \"firing\"]}"),
                            "/api/v1/alerts", ResultKind.SET),
                    read("prometheus.rule.list", "alerting", "Alerting and recording rules with their group, state, "
                            + "health and last error", object("", "\"type\": {\"type\": \"string\", \"enum\": [\"alert\", "
                            + "\"record\"]}"), "/api/v1/rules", ResultKind.SET),
                    read("prometheus.am-alert.list", "alerting", "Alerts Alertmanager holds, with their state, "
                            + "receivers and silences (an alertmanager target)", object("", "\"filter\": {\"type\": "
                            + "\"array\", \"maxItems\": 20, \"items\": {\"type\": \"string\", \"minLength\": 1}, "
                            + "\"description\": \"label matchers, e.g. severity=critical\"}, \"silenced\": {\"type\": "
                            + "\"boolean\"}, \"inhibited\": {\"type\": \"boolean\"}, \"active\": {\"type\": \"boolean\"}"),
                            "/api/v2/alerts", ResultKind.SET),
                    read("prometheus.silence.list", "alerting", "Silences with their matchers, state, author and end "
                            + "(an alertmanager target)", object("", "\"filter\": {\"type\": \"array\", \"maxItems\": 20, "
                            + "\"items\": {\"type\": \"string\", \"minLength\": 1}}, \"state\": {\"type\": \"string\", "
                            + "\"enum\": [\"active\", \"pending\", \"expired\"]}"), "/api/v2/silences", ResultKind.SET),
                    new OperationDescriptor("prometheus.silence.create", "alerting", "Silence the alerts matching "
                            + "matchers for a duration (an alertmanager target)", SafetyLevel.CAUTION, true, OpClass.WRITE,
                            object("\"matchers\", \"duration\", \"comment\"", """
                                    "matchers": {"type": "array", "minItems": 1, "maxItems": 20, "items": {"type": "string", "maxLength": 1000,
                                      "pattern": "^[a-zA-Z_][a-zA-Z0-9_]{0,199}(=|!=|=~|!~).*$"},
                                      "description": "label matchers as amtool writes them: alertname=DiskFull, severity=~crit.*, env!=dev"},
                                    "duration": {"type": "string", "pattern": "^[0-9]{1,4}[mhd]$",
                                      "description": "how long from now, e.g. 2h (at most 30d)"},
                                    "comment": {"type": "string", "minLength": 1, "maxLength": 1000},
                                    "created_by": {"type": "string", "minLength": 1, "maxLength": 200,
                                      "description": "author shown in Alertmanager (default svc backplane)"}"""),
                            new OperationShape.Http("POST", "/api/v2/silences"), ResultKind.OBJECT),
                    new OperationDescriptor("prometheus.silence.expire", "alerting", "Expire (end now) a silence by "
                            + "id (an alertmanager target)", SafetyLevel.CAUTION, true, OpClass.WRITE,
                            object("\"id\"", "\"id\": {\"type\": \"string\", \"pattern\": \"" + UUID + "\"}"),
                            new OperationShape.Http("DELETE", "/api/v2/silence/{id}"), ResultKind.OBJECT)));
}
