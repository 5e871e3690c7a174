package dev.backplane.kernel.events;

import static dev.backplane.kernel.events.EventSourceChecks.checkedExtras;
import static dev.backplane.kernel.events.EventSourceChecks.checkedName;
import static dev.backplane.kernel.events.EventSourceChecks.checkedOverlap;
import static dev.backplane.kernel.events.EventSourceChecks.checkedSecret;
import static dev.backplane.kernel.events.EventSourceChecks.checkedSlug;
import static dev.backplane.kernel.events.EventSourceChecks.checkedStatus;
import static dev.backplane.kernel.events.EventSourceChecks.generatedSlug;
import static dev.backplane.kernel.events.EventSourceChecks.invalid;
import static dev.backplane.kernel.events.EventSourceChecks.isSlug;
import static dev.backplane.kernel.events.EventSourceChecks.required;
import static dev.backplane.kernel.events.EventSourceChecks.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.SharedCache;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Event sources of a tenant: create, list, describe, update (rotation with an overlap window),
 * pause, resume, delete. The secret is written to the credential store ({@link SourceSecrets}), never to the
 * database, and is never returned. The ingest path reads sources by slug and their secrets through caches every
 * replica drops on change.
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

    static final String TOPIC = "events.source";

    private final EventSourceStore store;
    private final SourceSecrets secrets;
    private final AuditLog audit;
    private final int maxBodyBytes;
    private final SharedCache<Optional<EventSource>> bySlug;

    public EventSources(Jdbc jdbc, ChangeFeed feed, CredentialService credentials, AuditLog audit, int maxBodyBytes) {
        this(jdbc, feed, credentials, audit, maxBodyBytes, Optional.empty());
    }

    /**
     * @param cloudSmProject with the cloudsm credential backend, the Secret Manager project the sources' secrets are
     *        kept in (as {@code t-<tenant-id>-event-source-<id>}); unused with kv
     */
    public EventSources(Jdbc jdbc, ChangeFeed feed, CredentialService credentials, AuditLog audit, int maxBodyBytes,
                        Optional<String> cloudSmProject) {
        this.store = new EventSourceStore(jdbc);
        this.secrets = new SourceSecrets(credentials, feed, TOPIC + ".secret", cloudSmProject);
        this.audit = audit;
        this.maxBodyBytes = maxBodyBytes;
        this.bySlug = new SharedCache<>(feed, TOPIC, 100_000);
    }

    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    public EventSource create(Caller caller, Write w) {
        secrets.checkWritable();
        String slug = w.slug() == null || w.slug().isBlank() ? generatedSlug() : checkedSlug(w.slug());
        String name = checkedName(required(w.name(), "name"));
        EventNormalizer.Kind kind = EventNormalizer.Kind.fromWire(required(w.kind(), "kind")).orElseThrow(() ->
                invalid("kind", "kind must be one of alertrouter, dashalert, infraops, registry, generic-json"));
        EventSource.AuthStrategy strategy = strategy(required(w.authStrategy(), "auth_strategy"));
        String secret = checkedSecret(w.secret());
        ObjectNode extras = checkedExtras(w.extras(), maxBodyBytes);
        String status = w.status() == null ? "active" : checkedStatus(w.status());
        UUID id = UUID.randomUUID();
        if (store.slugOrNameTaken(slug, caller.tenantId(), name)) {
            throw EventErrors.EVENT_SOURCE_EXISTS.error("an event source with this slug or "
                    + "name exists already (slugs are global, names per tenant)", Map.of("slug", slug, "name", name));
        }
        // the secret first: a source row never exists without its secret (a failed write leaves at most an
        // unreferenced secret, never a source that fails open or closed by surprise)
        secrets.write(caller.tenantId(), id, secret);
        if (!store.insert(id, caller.tenantId(), slug, name, kind, strategy, extras, status, caller.sub())) {
            throw EventErrors.EVENT_SOURCE_EXISTS.error("an event source with this slug "
                    + "or name exists already", Map.of("slug", slug, "name", name));
        }
        bySlug.changed(slug);
        EventSource created = describe(caller.tenantId(), slug);
        governanceAudit(caller, "create", created, Map.of("after", created.view()));
        return created;
    }

    public List<EventSource> list(UUID tenant) {
        return store.list(tenant);
    }

    /** A source of this tenant by slug or name; another tenant's is not found. */
    public EventSource describe(UUID tenant, String slugOrName) {
        return store.find(tenant, slugOrName).orElseThrow(() -> EventErrors.EVENT_SOURCE_NOT_FOUND.error("no event source '" + slugOrName + "' in this tenant"));
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
        JsonNode extras = w.extras() == null ? before.extras() : checkedExtras(w.extras(), maxBodyBytes);
        String status = checkedStatus(w.status() == null ? before.status() : w.status());
        int overlap = checkedOverlap(w.overlapSeconds(), w.secret() != null);
        Optional<Instant> previousUntil = before.previousSecretUntil();
        int version = before.secretVersion();
        if (w.secret() != null) {
            secrets.rotate(before, checkedSecret(w.secret()), overlap > 0);
            previousUntil = overlap > 0 ? Optional.of(Instant.now().plusSeconds(overlap)) : Optional.empty();
            version++;
        }
        store.update(before.id(), name, strategy, extras, status, version, previousUntil, caller.sub());
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
        store.setStatus(before.id(), status, caller.sub());
        bySlug.changed(before.slug());
        EventSource after = describe(caller.tenantId(), before.slug());
        governanceAudit(caller, status.equals("paused") ? "pause" : "resume", after,
                Map.of("before", before.view(), "after", after.view()));
        return after;
    }

    public void delete(Caller caller, String slugOrName) {
        EventSource s = describe(caller.tenantId(), slugOrName);
        store.delete(s.id());
        bySlug.changed(s.slug());
        governanceAudit(caller, "delete", s, Map.of("before", s.view()));
    }

    /** The source a delivery names, whatever its tenant and status; cached (misses too) on every replica. */
    Optional<EventSource> bySlug(String slug) {
        if (!isSlug(slug)) {
            return Optional.empty();
        }
        return bySlug.get(slug, () -> store.bySlug(slug));
    }

    /** The secrets a source accepts now; empty (every delivery refused) when they cannot be read. */
    Optional<SourceSecrets.Keys> acceptedSecrets(EventSource s) {
        return secrets.accepted(s);
    }

    private void governanceAudit(Caller caller, String verb, EventSource s, Map<String, Object> diff) {
        audit.record(AuditLog.Entry.by(caller, AuditClass.OTHER, "svc.event_sources." + verb).target(s.slug()), "ok",
                Optional.empty(), Optional.empty(), diff);
    }
}
