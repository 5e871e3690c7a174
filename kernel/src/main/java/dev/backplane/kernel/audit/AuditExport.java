package dev.backplane.kernel.audit;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.util.JsonMapping;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** A filtered audit view written as a download: CSV (RFC 4180) or a JSON array of the rows as the API shows them. */
public enum AuditExport {
    CSV("text/csv; charset=utf-8"),
    JSON("application/json");

    /** The most rows one export holds; a bigger view is narrowed by its filters (time window) first. */
    public static final int MAX_ROWS = 10_000;
    static final List<String> COLUMNS = List.of("audit_id", "occurred_at", "principal", "principal_kind", "op_class",
            "op_id", "connector_id", "target", "result_status", "error_code", "duration_ms", "session_id",
            "parent_audit_id", "work_ref", "params_hash", "approval_request_id", "extras");

    private final String contentType;

    AuditExport(String contentType) {
        this.contentType = contentType;
    }

    public static AuditExport of(String format) {
        return switch (format) {
            case "csv" -> CSV;
            case "json" -> JSON;
            default -> throw CommonErrors.INVALID_REQUEST.error("format must be csv or json", Map.of("field", "format"));
        };
    }

    public String contentType() {
        return contentType;
    }

    /** Every row of the view up to {@link #MAX_ROWS}, reading page after page from {@code page}. */
    public List<AuditQueries.Row> collect(Function<Optional<String>, AuditQueries.Page> page) {
        List<AuditQueries.Row> rows = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            AuditQueries.Page p = page.apply(cursor);
            rows.addAll(p.rows());
            cursor = p.nextCursor();
        } while (cursor.isPresent() && rows.size() < MAX_ROWS);
        return rows.size() > MAX_ROWS ? rows.subList(0, MAX_ROWS) : rows;
    }

    public byte[] write(List<AuditQueries.Row> rows) {
        if (this == JSON) {
            return JsonMapping.write(rows).getBytes(StandardCharsets.UTF_8);
        }
        StringBuilder csv = new StringBuilder(String.join(",", COLUMNS)).append("\r\n");
        for (AuditQueries.Row r : rows) {
            List<Object> cells = List.of(r.auditId(), r.occurredAt(), r.principal(), r.principalKind(), r.opClass(),
                    r.opId(), r.connectorId().orElse(""), r.target().orElse(""), r.resultStatus(),
                    r.errorCode().orElse(""), r.durationMs().map(String::valueOf).orElse(""),
                    r.sessionId().map(String::valueOf).orElse(""), r.parentAuditId().map(String::valueOf).orElse(""),
                    r.workRef().orElse(""), r.paramsHash().orElse(""),
                    r.approvalRequestId().map(String::valueOf).orElse(""), JsonMapping.write(r.extras()));
            for (int i = 0; i < cells.size(); i++) {
                csv.append(i == 0 ? "" : ",").append(cell(String.valueOf(cells.get(i))));
            }
            csv.append("\r\n");
        }
        return csv.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** One CSV cell: quoted when it must be, and never a formula a spreadsheet would run (OWASP CSV injection). */
    static String cell(String value) {
        String v = !value.isEmpty() && "=+-@\t\r".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        if (v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")) {
            return "\"" + v.replace("\"", "\"\"") + "\"";
        }
        return v;
    }
}
