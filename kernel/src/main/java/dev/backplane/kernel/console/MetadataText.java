package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.CommonErrors;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Metadata as a person types it in the console: comma-separated {@code key=value} pairs, the same form
 * {@code svc kb add --metadata} takes. Values are strings.
 */
final class MetadataText {

    private MetadataText() {
    }

    static Map<String, Object> parse(String text, String field) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String pair : text.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0 || pair.substring(0, eq).isBlank()) {
                throw CommonErrors.INVALID_QUERY.error("metadata must be comma-separated key=value pairs; '"
                        + pair.trim() + "' is not one", Map.of("field", field));
            }
            out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return out;
    }

    static String format(Map<String, Object> metadata) {
        return metadata == null ? "" : metadata.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }
}
