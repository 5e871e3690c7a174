package dev.backplane.kernel.targets;

import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.ConnectorRegistry;
import dev.backplane.kernel.catalog.Resolution;
import dev.backplane.kernel.catalog.Resolver;
import dev.backplane.kernel.catalog.plugins.LoadedConnector;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.http.ApiException;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.Discovery;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import io.helidon.http.Status;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Probes a target through the connector the resolver picks and persists the fingerprint; finds
 * further targets through connectors that offer {@link Discovery}. Credentials are resolved for the
 * call only; the plugin gets a context whose network access is held to the SSRF guard.
 */
public final class ProbeService {

    /** What a probe found. */
    public record ProbeResult(String target, String connectorId, Map<String, Object> fingerprint) {
    }

    /** What discovery found (nothing is registered). */
    public record DiscoverResult(String product, String seedTarget, String connectorId, List<Map<String, Object>> candidates) {
    }

    private final TargetService targets;
    private final CatalogService catalog;
    private final ConnectorRegistry registry;
    private final CredentialService credentials;
    private final ConnectorSessions sessions;

    public ProbeService(TargetService targets, CatalogService catalog, CredentialService credentials,
                        ConnectorSessions sessions) {
        this.targets = targets;
        this.catalog = catalog;
        this.registry = catalog.registry();
        this.credentials = credentials;
        this.sessions = sessions;
    }

    public ProbeResult probe(UUID tenant, String nameOrAlias) {
        Target t = targets.describe(tenant, nameOrAlias);
        LoadedConnector connector = resolve(tenant, t);
        Credential credential = credential(tenant, t);
        Map<String, Object> fingerprint = new LinkedHashMap<>();
        try {
            Fingerprint f = withSession(connector, t, credential, Connector::probe);
            f.vendor().ifPresent(v -> fingerprint.put("vendor", v));
            f.product().ifPresent(v -> fingerprint.put("product", v));
            f.version().ifPresent(v -> fingerprint.put("version", v));
            fingerprint.put("reachable", f.reachable());
            fingerprint.put("probed_at", f.probedAt().truncatedTo(ChronoUnit.MILLIS).toString());
            fingerprint.put("probe_method", f.probeMethod());
        } catch (ConnectorException e) {
            boolean answered = e.code() == ErrorCode.CONNECTOR_AUTH_FAILED;
            fingerprint.put("reachable", answered);
            fingerprint.put("probed_at", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
            fingerprint.put("probe_method", "probe via " + connector.connectorId());
            fingerprint.put("error_code", e.code().wireName());
            fingerprint.put("reason", e.getMessage());
            if (e.extras().containsKey("exception_message")) {
                fingerprint.put("exception_message", e.extras().get("exception_message"));
            }
        }
        fingerprint.put("connector_id", connector.connectorId());
        targets.saveFingerprint(tenant, t.id(), fingerprint);
        return new ProbeResult(t.name(), connector.connectorId(), fingerprint);
    }

    public DiscoverResult discover(UUID tenant, String product, Optional<String> seed) {
        String seedName = seed.orElseThrow(() -> ApiException.unprocessable("seed_target_required", "discovery reaches "
                + "the product through a registered target: name one with --seed-target", Map.of("field", "seed_target")));
        Target t = targets.describe(tenant, seedName);
        if (!t.product().equals(product)) {
            throw ApiException.unprocessable("seed_target_mismatch", "seed target " + t.name() + " is a " + t.product()
                    + ", not a " + product, Map.of("field", "seed_target"));
        }
        LoadedConnector connector = resolve(tenant, t);
        Credential credential = credential(tenant, t);
        List<Map<String, Object>> found;
        try {
            found = withSession(connector, t, credential, c -> {
                if (!(c instanceof Discovery d)) {
                    return null;
                }
                return new ArrayList<>(d.discover(product));
            });
        } catch (ConnectorException e) {
            throw new ApiException(Status.BAD_GATEWAY_502, e.code().wireName(), e.getMessage(), e.extras());
        }
        if (found == null) {
            throw new ApiException(Status.NOT_IMPLEMENTED_501, "discover_not_supported", "discovery is not supported by "
                    + "this connector (" + connector.connectorId() + ")", Map.of("connector_id", connector.connectorId()));
        }
        return new DiscoverResult(product, t.name(), connector.connectorId(), found);
    }

    /** The implementation to probe through, among {@link CatalogService#probeable} connectors only. */
    private LoadedConnector resolve(UUID tenant, Target t) {
        Optional<String> version = t.fingerprint().map(f -> f.get("version")).map(Object::toString).or(t::version);
        List<LoadedConnector> probeable = catalog.probeable(tenant);
        Resolution r = Resolver.resolve(new Resolver.Query(t.product(), version, t.preferredImplId(), Optional.empty()),
                probeable.stream().map(LoadedConnector::descriptor).toList());
        if (version.isEmpty() && r instanceof Resolution.NoConnector) {
            // nothing is known yet and the probe is what finds the version out: a product served by one
            // implementation is probed through it (with several, the operator asserts a version or preferred_impl_id)
            List<LoadedConnector> serving = probeable.stream().filter(c -> c.descriptor().products().stream()
                    .anyMatch(p -> p.token().equals(t.product()))).toList();
            if (serving.size() == 1) {
                return serving.getFirst();
            }
        }
        return switch (r) {
            case Resolution.Resolved ok -> registry.require(tenant, ok.connectorId());
            case Resolution.NoConnector none -> throw new ApiException(Status.NOT_IMPLEMENTED_501, "no_connector",
                    none.message() + " (among plugin connectors and the ingested connectors this tenant enabled)"
                            + "; the cached fingerprint is unchanged");
            case Resolution.Ambiguous tie -> throw new ApiException(Status.CONFLICT_409, "ambiguous_connector",
                    "several implementations fit equally: " + tie.candidates() + "; set the target's preferred_impl_id",
                    Map.of("candidates", tie.candidates()));
        };
    }

    private Credential credential(UUID tenant, Target t) {
        try {
            return credentials.resolve(Optional.of(tenant), t.secretRef());
        } catch (ConnectorException e) {
            throw new ApiException(Status.BAD_GATEWAY_502, e.code().wireName(), e.getMessage(), e.extras());
        }
    }

    private <T> T withSession(LoadedConnector connector, Target t, Credential credential,
                              java.util.function.Function<Connector, T> body) {
        return sessions.call(connector, t, credential, body);
    }
}
