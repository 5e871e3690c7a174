package dev.backplane.plugins.prometheus;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugins.http.Params;
import dev.backplane.plugins.http.VendorHttp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one HTTP request each operation sends, built from its validated params: what {@code invoke}
 * sends and what {@code preview} shows are the same object. (Composite reads such as about send a
 * second request; preview shows the first.)
 */
final class PrometheusRequests {

    static final Duration MAX_SILENCE = Duration.ofDays(30);
    private static final java.util.regex.Pattern MATCHER =
            java.util.regex.Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)(=~|!~|!=|=)(.*)", java.util.regex.Pattern.DOTALL);

    private PrometheusRequests() {
    }

    static Optional<VendorHttp.Request> of(String opId, Params p, Instant now) {
        Map<String, List<String>> q = new LinkedHashMap<>();
        return Optional.ofNullable(switch (opId) {
            case "prometheus.about" -> get("/api/v1/status/buildinfo", q);
            case "prometheus.query.instant" -> {
                q.put("query", List.of(p.string("query").orElseThrow()));
                p.string("time").ifPresent(t -> q.put("time", List.of(t)));
                p.string("timeout").ifPresent(t -> q.put("timeout", List.of(t)));
                yield get("/api/v1/query", q);
            }
            case "prometheus.query.range" -> {
                checkRange(p);
                q.put("query", List.of(p.string("query").orElseThrow()));
                q.put("start", List.of(p.string("start").orElseThrow()));
                q.put("end", List.of(p.string("end").orElseThrow()));
                q.put("step", List.of(p.string("step").orElseThrow()));
                p.string("timeout").ifPresent(t -> q.put("timeout", List.of(t)));
                yield get("/api/v1/query_range", q);
            }
            case "prometheus.series.list" -> get("/api/v1/series", matchAndRange(p, q));
            case "prometheus.label.list" -> get("/api/v1/labels", matchAndRange(p, q));
            case "prometheus.label.values" -> get("/api/v1/label/" + p.string("name").orElseThrow() + "/values",
                    matchAndRange(p, q));
            case "prometheus.target.list" -> {
                q.put("state", List.of(p.string("state").orElse("active")));
                yield get("/api/v1/targets", q);
            }
            case "prometheus.alert.list" -> get("/api/v1/alerts", q);
            case "prometheus.rule.list" -> {
                p.string("type").ifPresent(t -> q.put("type", List.of(t)));
                yield get("/api/v1/rules", q);
            }
            case "prometheus.am-alert.list" -> {
                p.strings("filter").ifPresent(f -> q.put("filter", f));
                for (String flag : List.of("silenced", "inhibited", "active")) {
                    p.bool(flag).ifPresent(b -> q.put(flag, List.of(b.toString())));
                }
                yield get("/api/v2/alerts", q);
            }
            case "prometheus.silence.list" -> {
                p.strings("filter").ifPresent(f -> q.put("filter", f));
                yield get("/api/v2/silences", q);
            }
            case "prometheus.silence.create" -> new VendorHttp.Request("POST", "/api/v2/silences", q,
                    Optional.of(silence(p, now)));
            case "prometheus.silence.expire" -> new VendorHttp.Request("DELETE", "/api/v2/silence/"
                    + p.string("id").orElseThrow(), q, Optional.empty());
            default -> null;
        });
    }

    private static VendorHttp.Request get(String path, Map<String, List<String>> query) {
        return new VendorHttp.Request("GET", path, query, Optional.empty());
    }

    private static Map<String, List<String>> matchAndRange(Params p, Map<String, List<String>> q) {
        p.strings("match").ifPresent(m -> q.put("match[]", m));
        p.string("start").ifPresent(s -> q.put("start", List.of(s)));
        p.string("end").ifPresent(e -> q.put("end", List.of(e)));
        return q;
    }

    /** Refuses a range that ends before it starts or asks for more than {@link PrometheusCatalog#MAX_POINTS} points. */
    private static void checkRange(Params p) {
        double start = seconds(p.string("start").orElseThrow(), "start");
        double end = seconds(p.string("end").orElseThrow(), "end");
        double step = duration(p.string("step").orElseThrow()).toMillis() / 1000.0;
        if (end < start) {
            throw invalid("end is before start", "end");
        }
        if (step <= 0) {
            throw invalid("step must be positive", "step");
        }
        if ((end - start) / step > PrometheusCatalog.MAX_POINTS) {
            throw invalid("the range holds " + (long) ((end - start) / step) + " steps; at most "
                    + PrometheusCatalog.MAX_POINTS + " points a series (use a larger step or a shorter range)", "step");
        }
    }

    private static double seconds(String time, String field) {
        try {
            return time.contains("T") ? OffsetDateTime.parse(time).toInstant().toEpochMilli() / 1000.0
                    : Double.parseDouble(time);
        } catch (RuntimeException e) {
            throw invalid("'" + time + "' is not an RFC 3339 time or Unix seconds", field);
        }
    }

    /** A Prometheus duration ({@code 1h30m}, {@code 15s}, {@code 500ms}). */
    static Duration duration(String text) {
        Duration total = Duration.ZERO;
        var m = java.util.regex.Pattern.compile("([0-9]+)(ms|s|m|h|d|w|y)").matcher(text);
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                case "w" -> Duration.ofDays(7 * n);
                default -> Duration.ofDays(365 * n);
            });
        }
        return total;
    }

    /** Alertmanager's postable silence: from now for the duration (at most 30 days). */
    private static Map<String, Object> silence(Params p, Instant now) {
        Duration d = duration(p.string("duration").orElseThrow());
        if (d.isZero() || d.compareTo(MAX_SILENCE) > 0) {
            throw invalid("a silence lasts more than 0 and at most 30 days", "duration");
        }
        List<Map<String, Object>> matchers = new ArrayList<>();
        for (String m : p.strings("matchers").orElseThrow()) {
            var parsed = MATCHER.matcher(m);
            if (!parsed.matches()) {
                throw invalid("'" + m + "' is not a matcher (name=value, name!=value, name=~regex, name!~regex)",
                        "matchers");
            }
            String value = parsed.group(3);
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("name", parsed.group(1));
            out.put("value", value);
            out.put("isRegex", parsed.group(2).endsWith("~"));
            out.put("isEqual", !parsed.group(2).startsWith("!"));
            matchers.add(out);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("matchers", matchers);
        body.put("startsAt", now.toString());
        body.put("endsAt", now.plus(d).toString());
        body.put("createdBy", p.string("created_by").orElse("svc backplane"));
        body.put("comment", p.string("comment").orElseThrow());
        return body;
    }

    static ConnectorException invalid(String message, String field) {
        return new ConnectorException(ErrorCode.INVALID_PARAMS, message, Map.of("field", field), null);
    }
}
