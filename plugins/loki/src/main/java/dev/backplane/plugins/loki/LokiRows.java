package dev.backplane.plugins.loki;

import static dev.backplane.plugins.http.MetricJson.instant;
import static dev.backplane.plugins.http.MetricJson.labels;
import static dev.backplane.plugins.http.MetricJson.nanos;
import static dev.backplane.plugins.http.MetricJson.samples;
import static dev.backplane.plugins.http.MetricJson.series;
import static dev.backplane.plugins.http.MetricJson.single;
import static dev.backplane.plugins.http.MetricJson.value;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loki answers as flat rows: one row per log line (merged across streams, in the query's direction),
 * per series of a metric query, per label or stream; times as RFC 3339 with nanoseconds kept.
 */
final class LokiRows {

    private LokiRows() {
    }

    /** A query's {@code data}: streams as log lines, vector and matrix by series, scalar as one row. */
    static List<Map<String, Object>> query(JsonNode data, boolean forward) {
        List<Map<String, Object>> rows = new ArrayList<>();
        JsonNode result = data.path("result");
        switch (data.path("resultType").asText()) {
            case "streams" -> {
                List<Object[]> lines = new ArrayList<>();
                result.forEach(s -> s.path("values").forEach(v -> lines.add(new Object[] {v.path(0).asText(),
                        v.path(1).asText(), s.path("stream")})));
                Comparator<Object[]> byTime = Comparator.comparing(l -> new BigDecimal((String) l[0]));
                lines.sort(forward ? byTime : byTime.reversed());
                for (Object[] l : lines) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("timestamp", nanos((String) l[0]));
                    row.put("labels", labels((JsonNode) l[2]));
                    row.put("line", l[1]);
                    rows.add(row);
                }
            }
            case "vector" -> result.forEach(s -> rows.add(instant(s)));
            case "matrix" -> result.forEach(s -> {
                Map<String, Object> row = series(s.path("metric"));
                List<List<Object>> samples = samples(s);
                row.put("samples", samples.size());
                row.put("last", samples.isEmpty() ? null : samples.getLast().get(1));
                row.put("values", samples);
                rows.add(row);
            });
            default -> rows.add(single(data.path("resultType").asText(), result, value(result.path(1))));
        }
        return rows;
    }

}
