package dev.backplane.kernel.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.WireNames;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * An inbound webhook source (SPEC "Event source"). The secret is never part of it: it lives in the
 * credential store and only {@link WebhookAuth} reads it.
 *
 * @param extras per-source tuning: {@code max_body_bytes}, {@code rate_per_second}, {@code burst},
 *     {@code replay_window_seconds}, {@code signature_header}, {@code timestamp_header}, {@code id_header},
 *     {@code secret_header}, {@code basic_username}, {@code require_timestamp}
 * @param secretVersion bumped on every rotation, so replicas re-read the secret
 * @param previousSecretUntil while set and in the future, the previous secret is accepted too
 */
public record EventSource(UUID id, UUID tenantId, String slug, String name, EventNormalizer.Kind kind,
                          AuthStrategy authStrategy, JsonNode extras, String status, int secretVersion,
                          Optional<Instant> previousSecretUntil, Instant createdAt, String createdBy,
                          Instant updatedAt, String updatedBy) {

    /** How a sender proves itself (SPEC "Authentication" 8). */
    public enum AuthStrategy {
        HMAC_SHA256, STATIC_HEADER, BASIC;

        /** {@code hmac-sha256}, {@code static-header} or {@code basic}. */
        public String wire() {
            return WireNames.of(this);
        }

        public static Optional<AuthStrategy> fromWire(String wire) {
            return WireNames.parse(AuthStrategy.class, wire);
        }
    }

    public boolean active() {
        return status.equals("active");
    }

    /** A string setting of {@code extras}, or the default. */
    public String setting(String key, String fallback) {
        JsonNode v = extras.get(key);
        return v != null && v.isTextual() && !v.asText().isBlank() ? v.asText() : fallback;
    }

    /** A numeric setting of {@code extras}, or the default. */
    public long number(String key, long fallback) {
        JsonNode v = extras.get(key);
        return v != null && v.canConvertToLong() ? v.asLong() : fallback;
    }

    /** A boolean setting of {@code extras}; false unless set to {@code true}. */
    public boolean flag(String key) {
        JsonNode v = extras.get(key);
        return v != null && v.isBoolean() && v.booleanValue();
    }

    /** The wire form: never the secret. */
    public Map<String, Object> view() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id.toString());
        m.put("slug", slug);
        m.put("name", name);
        m.put("kind", kind.wire());
        m.put("auth_strategy", authStrategy.wire());
        m.put("extras", extras);
        m.put("status", status);
        m.put("ingest_path", "/api/v1/events/ingest/" + slug);
        m.put("secret_version", secretVersion);
        m.put("previous_secret_valid_until", previousSecretUntil.filter(t -> t.isAfter(Instant.now()))
                .map(Instant::toString).orElse(null));
        m.put("created_at", createdAt.toString());
        m.put("created_by", createdBy);
        m.put("updated_at", updatedAt.toString());
        m.put("updated_by", updatedBy);
        return m;
    }
}
