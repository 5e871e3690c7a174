package dev.backplane.kernel.events;

import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.credentials.SecretRefs;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.SharedCache;
import dev.backplane.plugin.api.ConnectorException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The secrets of event sources, kept in the credential store — kv at {@code tenants/<tenant>/event-sources/<id>},
 * Google Secret Manager as {@code t-<tenant>-event-source-<id>} in the deploy's {@code credentials.cloudsm.project} —
 * never in the database: written on create and rotation (the previous one kept for an overlap), and read by ingest
 * through a cache every replica drops on change.
 */
final class SourceSecrets {

    private static final System.Logger LOG = System.getLogger(SourceSecrets.class.getName());

    /** The secrets a source accepts right now: the current one, and the previous one during an overlap. */
    record Keys(byte[] current, Optional<byte[]> previous) {
        @Override
        public String toString() {
            return "Keys(redacted)";
        }
    }

    private final CredentialService credentials;
    private final Optional<String> cloudSmProject;
    private final SharedCache<Keys> cache;

    SourceSecrets(CredentialService credentials, ChangeFeed feed, String topic, Optional<String> cloudSmProject) {
        this.credentials = credentials;
        this.cloudSmProject = cloudSmProject.filter(p -> !p.isBlank());
        this.cache = new SharedCache<>(feed, topic, 100_000, Duration.ofMinutes(5));
    }

    /** Refuses a new source when the deploy keeps secrets in Secret Manager without naming a project for them. */
    void checkWritable() {
        if (credentials.backend() == SecretRefs.Backend.CLOUDSM && cloudSmProject.isEmpty()) {
            throw EventErrors.EVENT_SOURCE_SECRETS_NEED_PROJECT.error("this deploy keeps secrets in Google Secret "
                    + "Manager and names no project for event-source secrets: set credentials.cloudsm.project "
                    + "(SVC_CLOUDSM_PROJECT)", Map.of("setting", "SVC_CLOUDSM_PROJECT"));
        }
    }

    /** Writes a source's first secret (before its row exists: a source never exists without its secret). */
    void write(UUID tenant, UUID source, String secret) {
        credentials.stage(tenant, ref(tenant, source), Map.of("secret", secret));
    }

    /** Rotates a source's secret; with {@code keepPrevious} its current one stays accepted during the overlap. */
    void rotate(EventSource s, String secret, boolean keepPrevious) {
        Map<String, String> fields = new HashMap<>();
        fields.put("secret", secret);
        if (keepPrevious) {
            fields.put("previous", new String(keys(s).current(), StandardCharsets.UTF_8));
        }
        credentials.stage(s.tenantId(), ref(s.tenantId(), s.id()), fields);
    }

    /**
     * The secrets a source accepts now. A source whose secret cannot be read fails closed: every delivery is refused
     * (the caller answers 401).
     */
    Optional<Keys> accepted(EventSource s) {
        try {
            Keys all = keys(s);
            boolean overlap = s.previousSecretUntil().map(t -> t.isAfter(Instant.now())).orElse(false);
            return Optional.of(overlap ? all : new Keys(all.current(), Optional.empty()));
        } catch (ConnectorException | DomainException e) {
            LOG.log(Level.WARNING, "event source " + s.slug() + ": its secret cannot be read, refusing deliveries: "
                    + e.getMessage());
            return Optional.empty();
        }
    }

    private Keys keys(EventSource s) {
        return cache.get(s.id() + "/" + s.secretVersion(), () -> {
            var c = credentials.resolve(Optional.of(s.tenantId()), ref(s.tenantId(), s.id()));
            byte[] current = c.field("secret").getBytes(StandardCharsets.UTF_8);
            Optional<byte[]> previous = c.has("previous")
                    ? Optional.of(c.field("previous").getBytes(StandardCharsets.UTF_8))
                    : Optional.empty();
            return new Keys(current, previous);
        });
    }

    /** kv: {@code tenants/<tenant>/event-sources/<id>}; cloudsm: {@code cloudsm:<project>/t-<tenant>-event-source-<id>}. */
    String ref(UUID tenant, UUID source) {
        return switch (credentials.backend()) {
            case KV -> "tenants/" + tenant + "/event-sources/" + source;
            case CLOUDSM -> "cloudsm:" + cloudSmProject.orElseThrow() + "/" + SecretRefs.cloudSmPrefix(tenant)
                    + "event-source-" + source;
        };
    }
}
