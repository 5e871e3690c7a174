package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.results.ResultHandles;
import dev.backplane.kernel.util.JsonMapping;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Result reduction (SPEC Limits): a set result over 50 rows or 4 KB serialized is stored whole under
 * a handle and the envelope carries a sample plus {@code fetch_more.drill_in}. Not opt-out. A result larger
 * than a stored result may be ({@code results.handle-max-bytes}) is not stored: the sample comes with
 * {@code drill_in.available: false} and the reason, so the caller narrows the call instead.
 */
final class Reducer {

    static final int MAX_ROWS = 50;
    static final int MAX_BYTES = 4096;
    static final int SAMPLE_ROWS = 10;

    /** The result and the extras that go with it. */
    record Reduced(Object result, Map<String, Object> extras) {
    }

    private final ResultHandles handles;

    Reducer(ResultHandles handles) {
        this.handles = handles;
    }

    Reduced reduce(UUID tenant, String principal, String opId, List<Map<String, Object>> rows) {
        int bytes = JsonMapping.write(rows).getBytes(StandardCharsets.UTF_8).length;
        if (rows.size() <= MAX_ROWS && bytes <= MAX_BYTES) {
            return new Reduced(rows, Map.of("total_rows", rows.size()));
        }
        List<Map<String, Object>> sample = new ArrayList<>();
        int size = 2;
        for (Map<String, Object> row : rows) {
            int rowBytes = JsonMapping.write(row).getBytes(StandardCharsets.UTF_8).length + 1;
            if (sample.size() >= SAMPLE_ROWS || size + rowBytes > MAX_BYTES) {
                break;
            }
            sample.add(row);
            size += rowBytes;
        }
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("reduced", true);
        extras.put("total_rows", rows.size());
        extras.put("sample_rows", sample.size());
        if (bytes > handles.maxBytes()) {
            Map<String, Object> drill = new LinkedHashMap<>();
            drill.put("available", false);
            drill.put("reason", "the whole result is " + bytes + " bytes, over the " + handles.maxBytes() + " a stored "
                    + "result may hold (results.handle-max-bytes); it was not stored: narrow the call (filters, "
                    + "selectors, a smaller limit) to see the rest");
            extras.put("fetch_more", Map.of("drill_in", drill));
            return new Reduced(sample, extras);
        }
        ResultHandles.Handle h = handles.store(tenant, principal, opId, rows);
        Map<String, Object> example = new LinkedHashMap<>();
        example.put("handle_id", h.id().toString());
        example.put("offset", 0);
        example.put("limit", 50);
        Map<String, Object> drill = new LinkedHashMap<>();
        drill.put("available", true);
        drill.put("handle_id", h.id().toString());
        drill.put("example_call", Map.of("rest", "POST /api/v1/operations/result-query", "cli",
                "svc operation result-query " + h.id(), "tool", "result_query", "args", example));
        drill.put("expires_at", h.expiresAt().toString());
        extras.put("fetch_more", Map.of("drill_in", drill));
        return new Reduced(sample, extras);
    }
}
