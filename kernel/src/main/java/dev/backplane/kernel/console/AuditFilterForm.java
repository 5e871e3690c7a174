package dev.backplane.kernel.console;

import dev.backplane.kernel.audit.AuditErrors;
import dev.backplane.kernel.audit.AuditQueries;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The audit explorer's filters as the query string carries them (the same names as {@code GET /api/v1/audit}), the
 * cursor of the page shown, and the links that keep them: the next page, the export, a filter by one value.
 */
public record AuditFilterForm(Map<String, String> values, Optional<String> cursor) {

    /** The filters, in the order the form shows them. */
    public static final List<String> FIELDS = List.of("since", "until", "principal", "target", "op_id", "work_ref",
            "session_id", "result_status", "op_class");

    /** The filters of a query string, read through {@code query} (a parameter's first value, if any). */
    static AuditFilterForm of(Function<String, Optional<String>> query) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String field : FIELDS) {
            query.apply(field).map(String::strip).filter(v -> !v.isEmpty()).ifPresent(v -> values.put(field, v));
        }
        return new AuditFilterForm(Map.copyOf(values), query.apply("cursor").filter(v -> !v.isBlank()));
    }

    /** The rows whose parent is {@code parent} (a composite's children). */
    static AuditQueries.Filter children(UUID parent) {
        return new AuditQueries.Filter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(parent),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** The log's filter; {@code targetName} resolves a target alias to the name rows carry. */
    AuditQueries.Filter filter(UnaryOperator<String> targetName) {
        return new AuditQueries.Filter(Optional.empty(), get("op_class"), get("op_id"), Optional.empty(),
                get("principal"), get("result_status"), get("session_id").map(v -> uuid("session_id", v)), get("since"),
                get("until"), get("target").map(targetName), get("work_ref"), Optional.empty());
    }

    /** An example value of {@code field} shown in its empty input, or null for none. */
    public static String hint(String field) {
        return switch (field) {
            case "since", "until" -> "1h, 7d or 2026-11-30T08:00:00Z";
            case "op_id" -> "k8s.pod.*";
            case "result_status" -> "ok, error, denied, awaiting_approval, started";
            case "op_class" -> "read, write, audit_query, ...";
            default -> null;
        };
    }

    public String value(String field) {
        return values.getOrDefault(field, "");
    }

    Map<String, String> asMap() {
        return values;
    }

    /** This view's link with the next page's cursor. */
    String withCursor(String next) {
        return "/ui/audit?" + query(values) + (values.isEmpty() ? "" : "&") + "cursor=" + encode(next);
    }

    /** The export of this view in {@code format}. */
    public String exportLink(String format) {
        return "/ui/audit/export?" + query(values) + (values.isEmpty() ? "" : "&") + "format=" + format;
    }

    /** The explorer filtered by {@code field} = {@code value} alone (a link from a cell). */
    public static String by(String field, String value) {
        return "/ui/audit?" + field + "=" + encode(value);
    }

    /** Who touched {@code target}. */
    public static String whoTouched(String target) {
        return "/ui/audit/who-touched?target=" + encode(target);
    }

    private Optional<String> get(String field) {
        return Optional.ofNullable(values.get(field));
    }

    private static UUID uuid(String field, String text) {
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw AuditErrors.INVALID_FILTER.error(field + " must be a uuid", Map.of("field", field));
        }
    }

    private static String query(Map<String, String> values) {
        return values.entrySet().stream().map(e -> e.getKey() + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
    }

    private static String encode(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }
}
