package dev.backplane.kernel.targets;

import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.ConnectorRegistry;
import dev.backplane.kernel.catalog.Resolution;
import dev.backplane.kernel.catalog.Resolver;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.plugins.ConnectorSessions;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.Discovery;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
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

    /**
     * What discovery found, as a plan (nothing is registered): the candidates an import accepts as they are, the
     * members that are not importable as they are with the reason, and how many were beyond the plan's cap.
     */
    public record DiscoverResult(String product, String seedTarget, String connectorId, List<Map<String, Object>> candidates,
                                 List<DiscoveryPlan.Skipped> skipped, int omitted) {
    }

    private final dev.backplane.kernel.audit.AuditLog audit;
    private final TargetService targets;
    private final CatalogService catalog;
    private final ConnectorRegistry registry;
    private final CredentialService credentials;
    private final ConnectorSessions sessions;
    private final dev.backplane.kernel.catalog.Implementations implementations;

    public ProbeService(TargetService targets, CatalogService catalog, CredentialService credentials,
                        ConnectorSessions sessions, dev.backplane.kernel.audit.AuditLog audit,
                        dev.backplane.kernel.catalog.Implementations implementations) {
        this.implementations = implementations;
        this.audit = audit;
        this.targets = targets;
        this.catalog = catalog;
        this.registry = catalog.registry();
        this.credentials = credentials;
        this.sessions = sessions;
    }

    /**
     * A live probe. It uses the target's credential and contacts the target, so it is audited like a
     * dispatch ({@code svc.targets.probe}): the row is begun before contact (fail-closed) and finished
     * with the outcome; refusals before contact get a finished row of their own.
     */
    public ProbeResult probe(dev.backplane.kernel.identity.Caller caller, String nameOrAlias) {
        UUID tenant = caller.tenantId();
        Target t = targets.describe(tenant, nameOrAlias);
        Contact contact = contact(caller, "svc.targets.probe", t, Map.of());
        LoadedConnector connector = contact.connector();
        Credential credential = contact.credential();
        long t0 = System.nanoTime();
        UUID row = contact.row();
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
        } catch (RuntimeException | Error e) {
            audit.finish(row, "error", Optional.of("internal_error"), (System.nanoTime() - t0) / 1_000_000);
            throw e;
        }
        fingerprint.put("connector_id", connector.connectorId());
        audit.finish(row, fingerprint.containsKey("error_code") ? "error" : "ok",
                Optional.ofNullable(fingerprint.get("error_code")).map(Object::toString), (System.nanoTime() - t0) / 1_000_000);
        targets.saveFingerprint(tenant, t.id(), fingerprint);
        return new ProbeResult(t.name(), connector.connectorId(), fingerprint);
    }

    /** What a contact with a target needs, its audit row begun (fail-closed) before anything is sent. */
    private record Contact(LoadedConnector connector, Credential credential, UUID row) {
    }

    /**
     * Resolves the connector and the credential for a contact with {@code t} and begins its audit row;
     * a refusal on the way gets a finished row of its own and is thrown.
     */
    private Contact contact(dev.backplane.kernel.identity.Caller caller, String opId, Target t,
                            Map<String, Object> extras) {
        var entry = entry(caller, opId, t);
        LoadedConnector connector;
        Credential credential;
        try {
            connector = resolve(caller.tenantId(), t);
            credential = credential(caller.tenantId(), t);
        } catch (DomainException refused) {
            audit.record(entry, "error", Optional.of(refused.code()), Optional.empty(), Map.of());
            throw refused;
        }
        Map<String, Object> all = new LinkedHashMap<>(extras);
        all.put("connector_id", connector.connectorId());
        return new Contact(connector, credential, audit.begin(entry, all));
    }

    private static dev.backplane.kernel.audit.AuditLog.Entry entry(dev.backplane.kernel.identity.Caller caller,
                                                                   String opId, Target t) {
        return new dev.backplane.kernel.audit.AuditLog.Entry(caller.tenantId(), caller.sub(), caller.kind().wireName(),
                "credential_read", opId, Optional.empty(), Optional.of(t.name()), Optional.of(t.id()), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** Discovery through a seed target: contacts it with its credential, so it is audited like a probe. */
    public DiscoverResult discover(dev.backplane.kernel.identity.Caller caller, String product, Optional<String> seed) {
        UUID tenant = caller.tenantId();
        String seedName = seed.orElseThrow(() -> TargetErrors.SEED_TARGET_REQUIRED.error("discovery reaches "
                + "the product through a registered target: name one with --seed-target", Map.of("field", "seed_target")));
        Target t = targets.describe(tenant, seedName);
        if (!t.product().equals(product)) {
            throw TargetErrors.SEED_TARGET_MISMATCH.error("seed target " + t.name() + " is a " + t.product()
                    + ", not a " + product, Map.of("field", "seed_target"));
        }
        Contact contact = contact(caller, "svc.targets.discover", t, Map.of("product", product));
        LoadedConnector connector = contact.connector();
        Credential credential = contact.credential();
        long t0 = System.nanoTime();
        UUID row = contact.row();
        List<Map<String, Object>> found;
        try {
            found = withSession(connector, t, credential, c -> {
                if (!(c instanceof Discovery d)) {
                    return null;
                }
                return new ArrayList<>(d.discover(product));
            });
        } catch (ConnectorException e) {
            audit.finish(row, "error", Optional.of(e.code().wireName()), (System.nanoTime() - t0) / 1_000_000);
            throw new DomainException(ErrorKind.UPSTREAM_FAILED, e.code().wireName(), e.getMessage(), e.extras());
        } catch (RuntimeException | Error e) {
            audit.finish(row, "error", Optional.of("internal_error"), (System.nanoTime() - t0) / 1_000_000);
            throw e;
        }
        audit.finish(row, found == null ? "error" : "ok", Optional.ofNullable(found == null ? "discover_not_supported"
                : null), (System.nanoTime() - t0) / 1_000_000);
        if (found == null) {
            throw TargetErrors.DISCOVER_NOT_SUPPORTED.error("discovery is not supported by "
                    + "this connector (" + connector.connectorId() + ")", Map.of("connector_id", connector.connectorId()));
        }
        DiscoveryPlan.Plan plan = new DiscoveryPlan(t, registered(tenant), defaultPorts(tenant),
                f -> targets.problemAsNew(tenant, f)).of(found);
        return new DiscoverResult(product, t.name(), connector.connectorId(), plan.candidates(), plan.skipped(),
                plan.omitted());
    }

    /** Every target of the tenant (the plan leaves out members already registered and names already taken). */
    private List<Target> registered(UUID tenant) {
        List<Target> all = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            TargetService.Page page = targets.list(tenant, cursor, TargetService.LIST_LIMIT_MAX, Optional.empty());
            all.addAll(page.targets());
            cursor = page.nextCursor();
        } while (cursor.isPresent());
        return all;
    }

    private Map<String, Integer> defaultPorts(UUID tenant) {
        Map<String, Integer> ports = new java.util.HashMap<>();
        registry.all(tenant).forEach(c -> c.descriptor().products().forEach(p -> ports.putIfAbsent(p.token(),
                p.defaultPort())));
        return ports;
    }

    /**
     * Which connector would serve a call to the target now ({@code svc targets describe}): the resolver's choice
     * among the connectors the tenant enabled, with every connector of the product and why it was or was not
     * chosen. Nothing is contacted.
     */
    public dev.backplane.kernel.catalog.Implementations.Explanation explain(UUID tenant, String nameOrAlias,
                                                                          Optional<String> opId) {
        return implementations.explain(tenant, targets.describe(tenant, nameOrAlias).resolverSubject(), opId);
    }

    /** The implementation to probe through, among {@link CatalogService#probeable} connectors only. */
    private LoadedConnector resolve(UUID tenant, Target t) {
        Optional<String> version = t.fingerprint().map(f -> f.get("version")).map(Object::toString).or(t::version);
        List<LoadedConnector> probeable = catalog.probeable(tenant);
        Resolution r = Resolver.resolve(new Resolver.Query(t.product(), version, t.preferredImplId(),
                        implementations.preferences().implFor(tenant, t.product())),
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
            case Resolution.NoConnector none -> throw TargetErrors.NO_CONNECTOR.error(none.message() + " (among plugin connectors and the ingested connectors this tenant enabled)"
                            + "; the cached fingerprint is unchanged");
            case Resolution.Ambiguous tie -> throw TargetErrors.AMBIGUOUS_CONNECTOR.error("several implementations fit equally: " + tie.candidates() + "; set the target's preferred_impl_id",
                    Map.of("candidates", tie.candidates()));
        };
    }

    private Credential credential(UUID tenant, Target t) {
        try {
            return credentials.resolve(Optional.of(tenant), t.secretRef());
        } catch (ConnectorException e) {
            throw new DomainException(ErrorKind.UPSTREAM_FAILED, e.code().wireName(), e.getMessage(), e.extras());
        }
    }

    private <T> T withSession(LoadedConnector connector, Target t, Credential credential,
                              java.util.function.Function<Connector, T> body) {
        return sessions.call(connector, t.spec(), credential, body);
    }
}
