package dev.backplane.plugins.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The pieces of Prometheus' query-result format that Prometheus and Loki share: a series' labels and
 * selector, sample values and timestamps, as flat row values.
 */
public final class MetricJson {

    private MetricJson() {
    }

    /**
     * A row for one series: {@code series} written as a selector ({@code up{job="node"}}, or
     * {@code {app="web"}} without a metric name) and {@code labels} as an object.
     */
    public static Map<String, Object> series(JsonNode metric) {
        Map<String, Object> labels = labels(metric);
        StringJoiner j = new StringJoiner(",", metric.path("__name__").asText("") + "{", "}");
        labels.forEach((k, v) -> {
            if (!k.equals("__name__")) {
                j.add(k + "=\"" + v.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
            }
        });
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("series", j.toString());
        row.put("labels", labels);
        return row;
    }

    /** A vector's sample ({@code metric} and {@code value: [time, value]}) as its series' row with both. */
    public static Map<String, Object> instant(JsonNode sample) {
        Map<String, Object> row = series(sample.path("metric"));
        row.put("timestamp", seconds(sample.path("value").path(0)));
        row.put("value", value(sample.path("value").path(1)));
        return row;
    }

    /** A matrix series' {@code values} as {@code [time, value]} pairs. */
    public static List<List<Object>> samples(JsonNode series) {
        List<List<Object>> samples = new ArrayList<>();
        series.path("values").forEach(p -> samples.add(Arrays.asList(seconds(p.path(0)), value(p.path(1)))));
        return samples;
    }

    /** A scalar or string result ({@code [time, value]}) as one row named by its {@code type}. */
    public static Map<String, Object> single(String type, JsonNode result, Object value) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("series", type);
        row.put("timestamp", seconds(result.path(0)));
        row.put("value", value);
        return row;
    }

    /** A list of names or values (labels, label values) as rows of one column {@code name}. */
    public static List<Map<String, Object>> column(JsonNode values, String name) {
        List<Map<String, Object>> rows = new ArrayList<>();
        values.forEach(v -> rows.add(Map.of(name, v.asText())));
        return rows;
    }

    /** An object's fields as text values, in order. */
    public static Map<String, Object> labels(JsonNode object) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** A sample value: a number when finite, else Prometheus' spelling ({@code NaN}, {@code +Inf}). */
    public static Object value(JsonNode v) {
        try {
            double d = Double.parseDouble(v.asText());
            return Double.isFinite(d) ? d : v.asText();
        } catch (NumberFormatException e) {
            return v.asText();
        }
    }

    /** Unix seconds (with a fraction) as RFC 3339; null when not a number. */
    public static String seconds(JsonNode seconds) {
        if (!seconds.isNumber() && !seconds.isTextual()) {
            return null;
        }
        return Instant.ofEpochMilli(new BigDecimal(seconds.asText()).movePointRight(3).longValue()).toString();
    }

    /** Unix nanoseconds (a string) as RFC 3339 with the nanoseconds kept. */
    public static String nanos(String ns) {
        BigDecimal[] split = new BigDecimal(ns).divideAndRemainder(BigDecimal.valueOf(1_000_000_000L));
        return Instant.ofEpochSecond(split[0].longValue(), split[1].longValue()).toString();
    }
}
