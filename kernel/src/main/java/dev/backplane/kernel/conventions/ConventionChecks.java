package dev.backplane.kernel.conventions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The checks a convention write passes before {@link Conventions} stores it: slug, title, kind, priority and body,
 * each failure {@code INVALID_CONVENTION} (a bad slug {@code INVALID_SLUG}) naming the field.
 */
final class ConventionChecks {

    static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,127}");
    static final int MAX_TITLE_CHARS = 200;

    private ConventionChecks() {
    }

    static String slug(String slug) {
        if (slug == null || !SLUG.matcher(slug).matches()) {
            throw CommonErrors.INVALID_SLUG.error("slug must be 1-128 lower-case ASCII letters, digits or '-', "
                    + "starting with a letter or digit", Map.of("field", "slug"));
        }
        return slug;
    }

    static String required(String value, String field) {
        if (value == null) {
            throw invalid(field, field + " is required");
        }
        return value;
    }

    /** One line of 1-200 characters without control characters, stripped. */
    static String title(String title) {
        if (title.isBlank() || title.length() > MAX_TITLE_CHARS || title.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw invalid("title", "title must be one line of 1-" + MAX_TITLE_CHARS + " characters without control "
                    + "characters");
        }
        return title.strip();
    }

    static String kind(String kind) {
        if (!Conventions.KINDS.contains(kind)) {
            throw ConventionErrors.INVALID_CONVENTION.error("kind must be one of " + Conventions.KINDS + ", got '"
                    + kind + "'", Map.of("field", "kind", "valid_kinds", Conventions.KINDS));
        }
        return kind;
    }

    /** A whole number in the range of a SQL smallint. */
    static int priority(JsonNode p) {
        if (!p.isIntegralNumber() || !p.canConvertToInt() || p.asInt() < Short.MIN_VALUE || p.asInt() > Short.MAX_VALUE) {
            throw invalid("priority", "priority must be an integer from " + Short.MIN_VALUE + " to " + Short.MAX_VALUE);
        }
        return p.asInt();
    }

    /** Not blank, at most {@link Conventions#MAX_BODY_BYTES} bytes of UTF-8. */
    static String body(String body) {
        if (body.isBlank()) {
            throw invalid("body", "body is empty");
        }
        if (body.getBytes(StandardCharsets.UTF_8).length > Conventions.MAX_BODY_BYTES) {
            throw ConventionErrors.INVALID_CONVENTION.error("body exceeds " + Conventions.MAX_BODY_BYTES
                    + " bytes (UTF-8)", Map.of("field", "body", "max_bytes", Conventions.MAX_BODY_BYTES));
        }
        return body;
    }

    static DomainException invalid(String field, String message) {
        return ConventionErrors.INVALID_CONVENTION.error(message, Map.of("field", field));
    }

    static DomainException conflict(String slug, int expected, int current) {
        return ConventionErrors.VERSION_CONFLICT.error("convention '" + slug + "' is at version " + current + ", not "
                + expected + ": someone changed it meanwhile; look again and retry",
                Map.of("expected_version", expected, "current_version", current));
    }
}
