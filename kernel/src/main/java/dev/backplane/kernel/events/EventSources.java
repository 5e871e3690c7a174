package dev.backplane.kernel.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.credentials.SecretRefs;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.SharedCache;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.ConnectorException;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Event sources of a tenant: create, list, describe, update (rotation with an overlap window),
 * pause, resume, delete. The secret is written to the credential store — kv at
 * {@code tenants/<tenant>/event-sources/<id>}, Google Secret Manager as {@code t-<tenant>-event-source-<id>} in
 * the deploy's {@code credentials.cloudsm.project} — never to the database, and is never returned. The
 * ingest path reads sources by slug and their secrets through caches every replica drops on change.
 */
public final class EventSources {

    /** The write body of create and update; every field optional on update. */
    public record Write(String slug, String name, String kind, String authStrategy, String secret, JsonNode extras,
                        String status, Integer overlapSeconds) {
        @Override
        public String toString() {
            return "EventSources.Write[slug=" + slug + ", name=" + name + ", secret=" + (secret == null ? "none"
                    : "(redacted)") + "]";
        }
    }

    /** The secrets a source accepts right now: the current one, and the previous one during an overlap. */
    record Secrets(byte[] current, Optional<byte[]> previous) {
        @Override
        public String toString() {
            return "Secrets(redacted)";
        }
    }

    static final String TOPIC = "events.source";
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{15,63}");
    private static final Pattern HEADER = Pattern.compile("[A-Za-z0-9-]{1,64}");
    private static final Set<String> EXTRAS = Set.of("max_body_bytes", "rate_per_second", "burst",
            "replay_window_seconds", "signature_header", "timestamp_header", "id_header", "secret_header",
            "basic_username", "require_timestamp");
    private static final int SECRET_MIN = 16;
    private static final int SECRET_MAX = 4096;
    private static final int OVERLAP_DEFAULT = 3600;
    private static final int OVERLAP_MAX = 7 * 86400;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

    private final Jdbc jdbc;
    private final CredentialService credentials;
    private final AuditLog audit;
    private final int maxBodyBytes;
    private final Optional<String> cloudSmProject;
    private final SharedCache<Optional<EventSource>> bySlug;
    private final SharedCache<Secrets> secrets;

    public EventSources(Jdbc jdbc, ChangeFeed feed, CredentialService credentials, AuditLog audit, int maxBodyBytes) {
        this(jdbc, feed, credentials, audit, maxBodyBytes, Optional.empty());
    }

    /**
     * @param cloudSmProject with the cloudsm credential backend, the Secret Manager project the sources' secrets are
     *        kept in (as {@code t-<tenant-id>-event-source-<id>}); unused with kv
     */
    public EventSources(Jdbc jdbc, ChangeFeed feed, CredentialService credentials, AuditLog audit, int maxBodyBytes,
                        Optional<String> cloudSmProject) {
        this.cloudSmProject = cloudSmProject.filter(p -> !p.isBlank());
        this.jdbc = jdbc;
        this.credentials = credentials;
        this.audit = audit;
        this.maxBodyBytes = maxBodyBytes;
        this.bySlug = new SharedCache<>(feed, TOPIC, 100_000);
        this.secrets = new SharedCache<>(feed, TOPIC + ".secret", 100_000, Duration.ofMinutes(5));
    }

    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    public EventSource create(Caller caller, Write w) {
        if (credentials.backend() == SecretRefs.Backend.CLOUDSM && cloudSmProject.isEmpty()) {
            throw EventErrors.EVENT_SOURCE_SECRETS_NEED_PROJECT.error("this deploy keeps secrets in Google Secret "
                    + "Manager and names no project for event-source secrets: set credentials.cloudsm.project "
                    + "(SVC_CLOUDSM_PROJECT)", Map.of("setting", "SVC_CLOUDSM_PROJECT"));
        }
        String slug = w.slug() == null || w.slug().isBlank() ? generatedSlug() : checkedSlug(w.slug());
        String name = checkedName(required(w.name(), "name"));
        EventNormalizer.Kind kind = EventNormalizer.Kind.fromWire(required(w.kind(), "kind")).orElseThrow(() ->
                invalid("kind", "kind must be one of alertrouter, dashalert, infraops, registry, generic-json"));
        EventSource.AuthStrategy strategy = strategy(required(w.authStrategy(), "auth_strategy"));
        String secret = checkedSecret(w.secret());
        ObjectNode extras = checkedExtras(w.extras());
        if (w.status() != null && !Set.of("active", "paused").contains(w.status())) {
            throw invalid("status", "status must be active or paused");
        }
        UUID id = UUID.randomUUID();
        if (jdbc.queryOne("SELECT 1 FROM event_sources WHERE slug = ? OR (tenant_id = ? AND name = ?)", rs -> 1,
                slug, caller.tenantId(), name).isPresent()) {
            throw EventErrors.EVENT_SOURCE_EXISTS.error("an event source with this slug or "
                    + "name exists already (slugs are global, names per tenant)", Map.of("slug", slug, "name", name));
        }
        // the secret first: a source row never exists without its secret (a failed write leaves at most an
        // unreferenced secret, never a source that fails open or closed by surprise)
        credentials.stage(caller.tenantId(), secretRef(caller.tenantId(), id), Map.of("secret", secret));
        try {
            jdbc.update("""
                    INSERT INTO event_sources (id, tenant_id, slug, name, kind, auth_strategy, extras, status, created_by,
                           updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", id, caller.tenantId(), slug, name,
                    kind.wire(), strategy.wire(), Jdbc.jsonb(extras), w.status() == null ? "active" : w.status(),
                    caller.sub(), caller.sub());
        } catch (Jdbc.DataAccessException e) {
            if (e.getCause() instanceof SQLException s && "23505".equals(s.getSQLState())) {
                throw EventErrors.EVENT_SOURCE_EXISTS.error("an event source with this slug "
                        + "or name exists already", Map.of("slug", slug, "name", name));
            }
            throw e;
        }
        bySlug.changed(slug);
        EventSource created = describe(caller.tenantId(), slug);
        governanceAudit(caller, "create", created, Map.of("after", created.view()));
        return created;
    }

    public List<EventSource> list(UUID tenant) {
        return jdbc.query("SELECT * FROM event_sources WHERE tenant_id = ? ORDER BY name", EventSources::map, tenant);
    }

    /** A source of this tenant by slug or name; another tenant's is not found. */
    public EventSource describe(UUID tenant, String slugOrName) {
        return jdbc.queryOne("SELECT * FROM event_sources WHERE tenant_id = ? AND (slug = ? OR name = ?)",
                EventSources::map, tenant, slugOrName, slugOrName).orElseThrow(() -> EventErrors.EVENT_SOURCE_NOT_FOUND.error("no event source '" + slugOrName + "' in this tenant"));
    }

    public EventSource update(Caller caller, String slugOrName, Write w) {
        EventSource before = describe(caller.tenantId(), slugOrName);
        if (w.slug() != null && !w.slug().equals(before.slug())) {
            throw invalid("slug", "a slug cannot change (it is the senders' URL); create a new source instead");
        }
        if (w.kind() != null && !w.kind().equals(before.kind().wire())) {
            throw invalid("kind", "a source's kind cannot change; create a new source instead");
        }
        String name = w.name() == null ? before.name() : checkedName(w.name());
        EventSource.AuthStrategy strategy = w.authStrategy() == null ? before.authStrategy() : strategy(w.authStrategy());
        JsonNode extras = w.extras() == null ? before.extras() : checkedExtras(w.extras());
        String status = w.status() == null ? before.status() : w.status();
        if (!Set.of("active", "paused").contains(status)) {
            throw invalid("status", "status must be active or paused");
        }
        if (w.overlapSeconds() != null && w.secret() == null) {
            throw invalid("overlap_seconds", "overlap_seconds goes with a new secret");
        }
        int overlap = w.overlapSeconds() == null ? OVERLAP_DEFAULT : w.overlapSeconds();
        if (overlap < 0 || overlap > OVERLAP_MAX) {
            throw invalid("overlap_seconds", "overlap_seconds must be 0.." + OVERLAP_MAX);
        }
        Optional<Instant> previousUntil = before.previousSecretUntil();
        int version = before.secretVersion();
        if (w.secret() != null) {
            String secret = checkedSecret(w.secret());
            Map<String, String> fields = new HashMap<>();
            fields.put("secret", secret);
            if (overlap > 0) {
                fields.put("previous", new String(secrets(before).current(), java.nio.charset.StandardCharsets.UTF_8));
            }
            credentials.stage(caller.tenantId(), secretRef(caller.tenantId(), before.id()), fields);
            previousUntil = overlap > 0 ? Optional.of(Instant.now().plusSeconds(overlap)) : Optional.empty();
            version++;
        }
        jdbc.update("""
                UPDATE event_sources SET name = ?, auth_strategy = ?, extras = ?, status = ?, secret_version = ?,
                       previous_secret_until = ?, updated_at = now(), updated_by = ? WHERE id = ?""",
                name, strategy.wire(), Jdbc.jsonb(extras), status, version,
                previousUntil.map(Timestamp::from).orElse(null), caller.sub(), before.id());
        bySlug.changed(before.slug());
        EventSource after = describe(caller.tenantId(), before.slug());
        Map<String, Object> diff = new HashMap<>();
        diff.put("before", before.view());
        diff.put("after", after.view());
        diff.put("secret_rotated", w.secret() != null);
        governanceAudit(caller, "update", after, diff);
        return after;
    }

    /** Pauses ({@code paused}) or resumes ({@code active}) a source; audited as pause or resume. */
    public EventSource setStatus(Caller caller, String slugOrName, String status) {
        EventSource before = describe(caller.tenantId(), slugOrName);
        jdbc.update("UPDATE event_sources SET status = ?, updated_at = now(), updated_by = ? WHERE id = ?", status,
                caller.sub(), before.id());
        bySlug.changed(before.slug());
        EventSource after = describe(caller.tenantId(), before.slug());
        governanceAudit(caller, status.equals("paused") ? "pause" : "resume", after,
                Map.of("before", before.view(), "after", after.view()));
        return after;
    }

    public void delete(Caller caller, String slugOrName) {
        EventSource s = describe(caller.tenantId(), slugOrName);
        jdbc.update("DELETE FROM event_sources WHERE id = ?", s.id());
        bySlug.changed(s.slug());
        governanceAudit(caller, "delete", s, Map.of("before", s.view()));
    }

    /** The source a delivery names, whatever its tenant and status; cached (misses too) on every replica. */
    Optional<EventSource> bySlug(String slug) {
        if (!SLUG.matcher(slug).matches()) {
            return Optional.empty();
        }
        return bySlug.get(slug, () -> jdbc.queryOne("SELECT * FROM event_sources WHERE slug = ?", EventSources::map,
                slug));
    }

    /**
     * The secrets a source accepts now. A source whose secret cannot be read fails closed: every
     * delivery is refused (the caller answers 401).
     */
    Optional<Secrets> acceptedSecrets(EventSource s) {
        try {
            Secrets all = secrets(s);
            boolean overlap = s.previousSecretUntil().map(t -> t.isAfter(Instant.now())).orElse(false);
            return Optional.of(overlap ? all : new Secrets(all.current(), Optional.empty()));
        } catch (ConnectorException | DomainException e) {
            System.getLogger(EventSources.class.getName()).log(System.Logger.Level.WARNING, "event source "
                    + s.slug() + ": its secret cannot be read, refusing deliveries: " + e.getMessage());
            return Optional.empty();
        }
    }

    private Secrets secrets(EventSource s) {
        return secrets.get(s.id() + "/" + s.secretVersion(), () -> {
            var c = credentials.resolve(Optional.of(s.tenantId()), secretRef(s.tenantId(), s.id()));
            byte[] current = c.field("secret").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            Optional<byte[]> previous = c.has("previous")
                    ? Optional.of(c.field("previous").getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    : Optional.empty();
            return new Secrets(current, previous);
        });
    }

    /** kv: {@code tenants/<tenant>/event-sources/<id>}; cloudsm: {@code cloudsm:<project>/t-<tenant>-event-source-<id>}. */
    String secretRef(UUID tenant, UUID source) {
        return switch (credentials.backend()) {
            case KV -> "tenants/" + tenant + "/event-sources/" + source;
            case CLOUDSM -> "cloudsm:" + cloudSmProject.orElseThrow() + "/" + SecretRefs.cloudSmPrefix(tenant)
                    + "event-source-" + source;
        };
    }

    private void governanceAudit(Caller caller, String verb, EventSource s, Map<String, Object> diff) {
        audit.record(new AuditLog.Entry(caller.tenantId(), caller.sub(), caller.kind().wireName(), "other",
                "svc.event_sources." + verb, Optional.empty(), Optional.of(s.slug()), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), "ok", Optional.empty(),
                Optional.empty(), diff);
    }

    private static String generatedSlug() {
        StringBuilder b = new StringBuilder("es-");
        for (int i = 0; i < 26; i++) {
            b.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    private static String checkedSlug(String slug) {
        if (!SLUG.matcher(slug).matches()) {
            throw invalid("slug", "a slug is the routing key in the public ingest URL and must be hard to guess: 16-64 "
                    + "lower-case letters, digits and '-' (omit it to get a generated one)");
        }
        return slug;
    }

    private static String checkedName(String name) {
        if (name.isBlank() || name.length() > 128 || name.chars().anyMatch(Character::isISOControl)) {
            throw invalid("name", "name must be 1-128 characters without control characters");
        }
        return name;
    }

    private static EventSource.AuthStrategy strategy(String wire) {
        return EventSource.AuthStrategy.fromWire(wire).orElseThrow(() -> invalid("auth_strategy",
                "auth_strategy must be hmac-sha256, static-header or basic"));
    }

    private static String checkedSecret(String secret) {
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

    private ObjectNode checkedExtras(JsonNode extras) {
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

    private static String required(String value, String field) {
        if (value == null || value.isBlank()) {
            throw invalid(field, field + " is required");
        }
        return value;
    }

    private static DomainException invalid(String field, String message) {
        return EventErrors.INVALID_EVENT_SOURCE.error(message, Map.of("field", field));
    }

    private static EventSource map(ResultSet rs) throws SQLException {
        JsonNode extras;
        try {
            extras = JsonMapping.mapper().readTree(rs.getString("extras"));
        } catch (JsonProcessingException e) {
            throw new SQLException("event source extras are not JSON", e);
        }
        Timestamp prev = rs.getTimestamp("previous_secret_until");
        return new EventSource(rs.getObject("id", UUID.class), rs.getObject("tenant_id", UUID.class),
                rs.getString("slug"), rs.getString("name"),
                EventNormalizer.Kind.fromWire(rs.getString("kind")).orElseThrow(),
                EventSource.AuthStrategy.fromWire(rs.getString("auth_strategy")).orElseThrow(), extras,
                rs.getString("status"), rs.getInt("secret_version"), Optional.ofNullable(prev).map(Timestamp::toInstant),
                rs.getTimestamp("created_at").toInstant(), rs.getString("created_by"),
                rs.getTimestamp("updated_at").toInstant(), rs.getString("updated_by"));
    }
}
