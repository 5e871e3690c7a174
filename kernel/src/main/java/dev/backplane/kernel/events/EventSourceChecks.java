package dev.backplane.kernel.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks an event-source write passes before {@link EventSources} stores it: slug, name, auth strategy,
 * secret, status, rotation overlap and {@code extras}; each failure is {@code INVALID_EVENT_SOURCE} (or
 * {@code INVALID_EXTRAS}) naming the field.
 */
final class EventSourceChecks {

    static final int OVERLAP_DEFAULT = 3600;
    static final int OVERLAP_MAX = 7 * 86400;
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{15,63}");
    private static final Pattern HEADER = Pattern.compile("[A-Za-z0-9-]{1,64}");
    private static final Set<String> EXTRAS = Set.of("max_body_bytes", "rate_per_second", "burst",
            "replay_window_seconds", "signature_header", "timestamp_header", "id_header", "secret_header",
            "basic_username", "require_timestamp");
    private static final Set<String> STATUSES = Set.of("active", "paused");
    private static final int SECRET_MIN = 16;
    private static final int SECRET_MAX = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

    private EventSourceChecks() {
    }

    /** True when the text could be a source's slug (anything else names no source). */
    static boolean isSlug(String slug) {
        return SLUG.matcher(slug).matches();
    }

    /** A fresh slug: {@code es-} and 26 random base32 letters (130 bits). */
    static String generatedSlug() {
        StringBuilder b = new StringBuilder("es-");
        for (int i = 0; i < 26; i++) {
            b.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    static String checkedSlug(String slug) {
        if (!isSlug(slug)) {
            throw invalid("slug", "a slug is the routing key in the public ingest URL and must be hard to guess: 16-64 "
                    + "lower-case letters, digits and '-' (omit it to get a generated one)");
        }
        return slug;
    }

    static String checkedName(String name) {
        if (name.isBlank() || name.length() > 128 || name.chars().anyMatch(Character::isISOControl)) {
            throw invalid("name", "name must be 1-128 characters without control characters");
        }
        return name;
    }

    static EventSource.AuthStrategy strategy(String wire) {
        return EventSource.AuthStrategy.fromWire(wire).orElseThrow(() -> invalid("auth_strategy",
                "auth_strategy must be hmac-sha256, static-header or basic"));
    }

    static String checkedStatus(String status) {
        if (!STATUSES.contains(status)) {
            throw invalid("status", "status must be active or paused");
        }
        return status;
    }

    static String checkedSecret(String secret) {
        if (secret == null || secret.isEmpty()) {
            throw invalid("secret", "a secret is required (svc event-source: --secret-stdin or SVC_EVENT_SOURCE_SECRET); "
                    + "a source without one would fail closed");
        }
        if (secret.length() < SECRET_MIN || secret.length() > SECRET_MAX
                || secret.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw invalid("secret", "the secret must be " + SECRET_MIN + "-" + SECRET_MAX
                    + " printable characters");
        }
        return secret;
    }

    /** The seconds the previous secret stays valid after a rotation: given with a new secret only, 0..7 days. */
    static int checkedOverlap(Integer overlapSeconds, boolean newSecret) {
        if (overlapSeconds != null && !newSecret) {
            throw invalid("overlap_seconds", "overlap_seconds goes with a new secret");
        }
        int overlap = overlapSeconds == null ? OVERLAP_DEFAULT : overlapSeconds;
        if (overlap < 0 || overlap > OVERLAP_MAX) {
            throw invalid("overlap_seconds", "overlap_seconds must be 0.." + OVERLAP_MAX);
        }
        return overlap;
    }

    /** The known extras keys with checked values; a source may lower the deploy's body cap, never raise it. */
    static ObjectNode checkedExtras(JsonNode extras, int maxBodyBytes) {
        if (extras == null || extras.isNull()) {
            return JsonMapping.mapper().createObjectNode();
        }
        if (!extras.isObject()) {
            throw invalid("extras", "extras must be a JSON object");
        }
        ObjectNode out = JsonMapping.mapper().createObjectNode();
        for (var e : extras.properties()) {
            String k = e.getKey();
            JsonNode v = e.getValue();
            if (!EXTRAS.contains(k)) {
                throw EventErrors.INVALID_EXTRAS.error("unknown extras key '" + k + "'",
                        Map.of("field", "extras", "known_keys", EXTRAS.stream().sorted().toList()));
            }
            switch (k) {
                case "max_body_bytes" -> out.put(k, bounded(k, v, 1, maxBodyBytes,
                        " (a source may lower the deploy's cap of " + maxBodyBytes + " bytes, never raise it)"));
                case "rate_per_second" -> out.put(k, bounded(k, v, 1, 100_000, ""));
                case "burst" -> out.put(k, bounded(k, v, 1, 1_000_000, ""));
                case "replay_window_seconds" -> out.put(k, bounded(k, v, 10, 86_400, ""));
                case "require_timestamp" -> {
                    if (!v.isBoolean()) {
                        throw invalid("extras", "require_timestamp must be true or false");
                    }
                    out.put(k, v.booleanValue());
                }
                case "basic_username" -> {
                    if (!v.isTextual() || v.asText().isEmpty() || v.asText().length() > 128 || v.asText().contains(":")
                            || v.asText().chars().anyMatch(Character::isISOControl)) {
                        throw invalid("extras", "basic_username must be 1-128 characters without ':'");
                    }
                    out.put(k, v.asText());
                }
                default -> {
                    if (!v.isTextual() || !HEADER.matcher(v.asText()).matches()) {
                        throw invalid("extras", k + " must be an HTTP header name (letters, digits, '-')");
                    }
                    out.put(k, v.asText());
                }
            }
        }
        return out;
    }

    private static long bounded(String key, JsonNode v, long min, long max, String why) {
        if (v == null || !v.canConvertToLong() || !v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw invalid("extras", key + " must be a whole number " + min + ".." + max + why);
        }
        return v.asLong();
    }

    static String required(String value, String field) {
        if (value == null || value.isBlank()) {
            throw invalid(field, field + " is required");
        }
        return value;
    }

    static DomainException invalid(String field, String message) {
        return EventErrors.INVALID_EVENT_SOURCE.error(message, Map.of("field", field));
    }
}
