package dev.backplane.plugins.loki;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

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
            case "vector" -> result.forEach(s -> {
                Map<String, Object> row = series(s.path("metric"));
                row.put("timestamp", seconds(s.path("value").path(0)));
                row.put("value", value(s.path("value").path(1)));
                rows.add(row);
            });
            case "matrix" -> result.forEach(s -> {
                Map<String, Object> row = series(s.path("metric"));
                List<List<Object>> samples = new ArrayList<>();
                s.path("values").forEach(p -> samples.add(Arrays.asList(seconds(p.path(0)), value(p.path(1)))));
                row.put("samples", samples.size());
                row.put("last", samples.isEmpty() ? null : samples.getLast().get(1));
                row.put("values", samples);
                rows.add(row);
            });
            default -> {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("series", data.path("resultType").asText());
                row.put("timestamp", seconds(result.path(0)));
                row.put("value", value(result.path(1)));
                rows.add(row);
            }
        }
        return rows;
    }

    /** {@code series} as LogQL writes a selector ({@code {app="web"}}) and the labels as an object. */
    static Map<String, Object> series(JsonNode metric) {
        Map<String, Object> labels = labels(metric);
        StringJoiner j = new StringJoiner(",", "{", "}");
        labels.forEach((k, v) -> j.add(k + "=\"" + v.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\""));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("series", j.toString());
        row.put("labels", labels);
        return row;
    }

    static Map<String, Object> labels(JsonNode object) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    static Object value(JsonNode v) {
        try {
            double d = Double.parseDouble(v.asText());
            return Double.isFinite(d) ? d : v.asText();
        } catch (NumberFormatException e) {
            return v.asText();
        }
    }

    /** Unix nanoseconds (a string) as RFC 3339 with the nanoseconds kept. */
    static String nanos(String ns) {
        BigDecimal[] split = new BigDecimal(ns).divideAndRemainder(BigDecimal.valueOf(1_000_000_000L));
        return Instant.ofEpochSecond(split[0].longValue(), split[1].longValue()).toString();
    }

    /** Unix seconds (with a fraction) as RFC 3339. */
    static String seconds(JsonNode s) {
        if (!s.isNumber() && !s.isTextual()) {
            return null;
        }
        return Instant.ofEpochMilli(new BigDecimal(s.asText()).movePointRight(3).longValue()).toString();
    }
}
