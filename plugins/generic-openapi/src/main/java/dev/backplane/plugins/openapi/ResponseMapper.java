package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.ResultKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Turns the vendor's answers into results and errors, with the session's secrets scrubbed out. */
final class ResponseMapper {

    static final int TEXT_BODY_LIMIT = 4096;
    static final int ERROR_BODY_LIMIT = 2048;

    private final Scrubber scrubber;

    ResponseMapper(Scrubber scrubber) {
        this.scrubber = requireNonNull(scrubber, "scrubber is null");
    }

    /** A 2xx answer: rows for a JSON array of a set operation, else one document. */
    OperationResult success(VendorResponse r, ResultKind kind) {
        if (r.body().length == 0) {
            return new OperationResult.Document(status(r));
        }
        Optional<Json.Parsed> json = isJson(r) ? Json.parse(r.body()) : Optional.empty();
        if (json.isEmpty()) {
            Map<String, Object> doc = status(r);
            doc.put("content_type", r.contentType().orElse(""));
            doc.put("body", trimmed(scrubber.scrub(r.text()), TEXT_BODY_LIMIT));
            return new OperationResult.Document(doc);
        }
        Object value = scrubber.scrubDeep(json.get().value());
        if (kind == ResultKind.SET && value instanceof List<?> items) {
            return new OperationResult.Rows(rows(items));
        }
        return new OperationResult.Document(value);
    }

    /** A non-2xx answer other than 401: {@code connector_error} with the vendor's status and (trimmed) body. */
    ConnectorException vendorError(String what, VendorResponse r) {
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("vendor_status", r.status());
        extras.put("vendor_body", trimmed(scrubber.scrub(r.text()), ERROR_BODY_LIMIT));
        return new ConnectorException(ErrorCode.CONNECTOR_ERROR, what + " answered HTTP " + r.status(), extras, null);
    }

    /** A 401: the vendor refused the credential. */
    static ConnectorException rejected(String what, int status) {
        return new ConnectorException(ErrorCode.CONNECTOR_AUTH_FAILED, what + " refused the credential (HTTP " + status
                + ")", Map.of("vendor_status", status), null);
    }

    private static List<Map<String, Object>> rows(List<?> items) {
        List<Map<String, Object>> rows = new ArrayList<>(items.size());
        for (Object item : items) {
            if (item instanceof Map<?, ?> m) {
                Map<String, Object> row = new LinkedHashMap<>();
                m.forEach((k, v) -> row.put(String.valueOf(k), v));
                rows.add(row);
            } else {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("value", item);
                rows.add(row);
            }
        }
        return rows;
    }

    /** JSON by media type; with no media type, whatever parses as JSON. */
    private static boolean isJson(VendorResponse r) {
        return r.contentType().map(WireEncoding::isJson).orElse(true);
    }

    private static Map<String, Object> status(VendorResponse r) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("status", r.status());
        return doc;
    }

    static String trimmed(String text, int limit) {
        return text.length() <= limit ? text : text.substring(0, limit) + "…";
    }
}
