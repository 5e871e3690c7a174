package dev.backplane.kernel.sensors;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.JsonSchemas;
import dev.backplane.kernel.util.Times;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The checks of what a client sends about sensors — names, params, required fields, result cursors and
 * times — each refusing with SPEC's code and the field it is about.
 */
final class SensorInput {

    static final int MAX_PARAMS_CHARS = 16_384;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private SensorInput() {
    }

    /** A results cursor: the id of the last result of the page before (a positive number). */
    static long cursor(String c) {
        try {
            long v = Long.parseLong(c);
            if (v < 1) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw CommonErrors.INVALID_CURSOR.error("cursor must be the next_cursor of an earlier page, got '" + c + "'",
                    Map.of("field", "cursor"));
        }
    }

    static Instant time(String text, String field) {
        try {
            return Times.inRange(OffsetDateTime.parse(text).toInstant(), field, CommonErrors.INVALID_TIME.code());
        } catch (DateTimeParseException e) {
            throw CommonErrors.INVALID_TIME.error(field + " must be an RFC 3339 time such as 2026-01-31T12:00:00Z, got '"
                    + text + "'", Map.of("field", field));
        }
    }

    static String name(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw SensorErrors.INVALID_SENSOR.error("name must be 1..128 letters, digits, '.', '_' or '-' (starting with "
                    + "a letter or digit)", Map.of("field", "name"));
        }
        return name;
    }

    static Map<String, Object> params(Map<String, Object> params) {
        Map<String, Object> p = params == null ? Map.of() : params;
        if (JsonMapping.write(p).length() > MAX_PARAMS_CHARS) {
            throw SensorErrors.INVALID_SENSOR.error("params are larger than " + MAX_PARAMS_CHARS + " characters of JSON",
                    Map.of("field", "params"));
        }
        return new LinkedHashMap<>(p);
    }

    /** Params that the operation's schema refuses are refused now ({@code invalid_params}), not at every run. */
    static void checkParams(String schema, Map<String, Object> params) {
        List<String> problems = JsonSchemas.problems(JsonSchemas.compile(JsonMapping.tree(schema,
                "the operation's params schema")), JsonMapping.mapper().valueToTree(params));
        if (!problems.isEmpty()) {
            throw SensorErrors.INVALID_PARAMS.error("params do not match the operation's schema: "
                    + String.join("; ", problems), Map.of("field", "params", "validation_errors", problems));
        }
    }

    static void require(String value, String field) {
        if (value == null || value.isBlank()) {
            throw SensorErrors.INVALID_SENSOR.error(field + " is required", Map.of("field", field));
        }
    }
}
