package dev.backplane.plugins.prometheus;

import static dev.backplane.plugins.http.MetricJson.instant;
import static dev.backplane.plugins.http.MetricJson.labels;
import static dev.backplane.plugins.http.MetricJson.samples;
import static dev.backplane.plugins.http.MetricJson.series;
import static dev.backplane.plugins.http.MetricJson.single;
import static dev.backplane.plugins.http.MetricJson.value;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Prometheus and Alertmanager answers as flat rows: one row per series, target, rule, alert or
 * silence, with snake_case columns and times as RFC 3339, so the kernel's reduction and
 * result_query work on them and the CLI prints them as tables.
 */
final class PrometheusRows {

    private PrometheusRows() {
    }

    /** An instant or range query's {@code data}: vector and matrix by series, scalar and string as one row. */
    static List<Map<String, Object>> query(JsonNode data) {
        List<Map<String, Object>> rows = new ArrayList<>();
        String type = data.path("resultType").asText();
        JsonNode result = data.path("result");
        switch (type) {
            case "vector" -> result.forEach(s -> rows.add(instant(s)));
            case "matrix" -> result.forEach(s -> {
                Map<String, Object> row = series(s.path("metric"));
                List<List<Object>> samples = samples(s);
                Double min = null;
                Double max = null;
                for (List<Object> point : samples) {
                    if (point.get(1) instanceof Double d) {
                        min = min == null ? d : Math.min(min, d);
                        max = max == null ? d : Math.max(max, d);
                    }
                }
                row.put("samples", samples.size());
                row.put("first", samples.isEmpty() ? null : samples.getFirst().get(1));
                row.put("last", samples.isEmpty() ? null : samples.getLast().get(1));
                row.put("min", min);
                row.put("max", max);
                row.put("values", samples);
                rows.add(row);
            });
            default -> rows.add(single(type, result, // scalar and string: [time, value]
                    type.equals("scalar") ? value(result.path(1)) : result.path(1).asText()));
        }
        return rows;
    }

    static List<Map<String, Object>> targets(JsonNode data) {
        List<Map<String, Object>> rows = new ArrayList<>();
        data.path("activeTargets").forEach(t -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("state", "active");
            row.put("job", t.path("labels").path("job").asText(t.path("scrapePool").asText()));
            row.put("instance", t.path("labels").path("instance").asText());
            row.put("health", t.path("health").asText());
            row.put("scrape_url", t.path("scrapeUrl").asText());
            row.put("last_scrape", t.path("lastScrape").asText());
            row.put("last_scrape_duration_s", t.path("lastScrapeDuration").asDouble());
            row.put("last_error", t.path("lastError").asText());
            row.put("labels", labels(t.path("labels")));
            rows.add(row);
        });
        data.path("droppedTargets").forEach(t -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("state", "dropped");
            row.put("job", t.path("discoveredLabels").path("job").asText());
            row.put("instance", t.path("discoveredLabels").path("__address__").asText());
            row.put("labels", labels(t.path("discoveredLabels")));
            rows.add(row);
        });
        return rows;
    }

    static List<Map<String, Object>> alerts(JsonNode data) {
        List<Map<String, Object>> rows = new ArrayList<>();
        data.path("alerts").forEach(a -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("alertname", a.path("labels").path("alertname").asText());
            row.put("state", a.path("state").asText());
            row.put("active_at", a.path("activeAt").asText());
            row.put("value", value(a.path("value")));
            row.put("labels", labels(a.path("labels")));
            row.put("annotations", labels(a.path("annotations")));
            rows.add(row);
        });
        return rows;
    }

    static List<Map<String, Object>> rules(JsonNode data) {
        List<Map<String, Object>> rows = new ArrayList<>();
        data.path("groups").forEach(g -> g.path("rules").forEach(r -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("group", g.path("name").asText());
            row.put("file", g.path("file").asText());
            row.put("name", r.path("name").asText());
            row.put("type", r.path("type").asText().equals("alerting") ? "alert" : "record");
            row.put("state", r.path("state").asText(""));
            row.put("health", r.path("health").asText());
            row.put("query", r.path("query").asText());
            row.put("duration_s", r.path("duration").asDouble(0));
            row.put("alerts", r.path("alerts").size());
            row.put("last_error", r.path("lastError").asText(""));
            row.put("labels", labels(r.path("labels")));
            rows.add(row);
        }));
        return rows;
    }

    static List<Map<String, Object>> amAlerts(JsonNode alerts) {
        List<Map<String, Object>> rows = new ArrayList<>();
        alerts.forEach(a -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("alertname", a.path("labels").path("alertname").asText());
            row.put("state", a.path("status").path("state").asText());
            row.put("starts_at", a.path("startsAt").asText());
            row.put("ends_at", a.path("endsAt").asText());
            row.put("fingerprint", a.path("fingerprint").asText());
            List<String> receivers = new ArrayList<>();
            a.path("receivers").forEach(r -> receivers.add(r.path("name").asText()));
            row.put("receivers", String.join(",", receivers));
            List<String> silencedBy = new ArrayList<>();
            a.path("status").path("silencedBy").forEach(s -> silencedBy.add(s.asText()));
            row.put("silenced_by", String.join(",", silencedBy));
            row.put("labels", labels(a.path("labels")));
            row.put("annotations", labels(a.path("annotations")));
            rows.add(row);
        });
        return rows;
    }

    static Map<String, Object> silence(JsonNode s) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", s.path("id").asText());
        row.put("state", s.path("status").path("state").asText());
        StringJoiner m = new StringJoiner(", ");
        s.path("matchers").forEach(x -> m.add(x.path("name").asText() + (x.path("isEqual").asBoolean(true) ? "" : "!")
                + (x.path("isRegex").asBoolean() ? "=~" : "=") + "\"" + x.path("value").asText() + "\""));
        row.put("matchers", m.toString());
        row.put("starts_at", s.path("startsAt").asText());
        row.put("ends_at", s.path("endsAt").asText());
        row.put("created_by", s.path("createdBy").asText());
        row.put("comment", s.path("comment").asText());
        return row;
    }
}
