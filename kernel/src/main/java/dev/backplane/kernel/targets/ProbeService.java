package dev.backplane.kernel.targets;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.Implementations;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.plugins.ConnectorSessions;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.Discovery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

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

    private final AuditLog audit;
    private final TargetService targets;
    private final ProbeRoute route;
    private final CredentialService credentials;
    private final ConnectorSessions sessions;
    private final Implementations implementations;

    public ProbeService(TargetService targets, CatalogService catalog, CredentialService credentials,
                        ConnectorSessions sessions, AuditLog audit, Implementations implementations) {
        this.implementations = implementations;
        this.audit = audit;
        this.targets = targets;
        this.route = new ProbeRoute(catalog, implementations);
        this.credentials = credentials;
        this.sessions = sessions;
    }

    /**
     * A live probe. It uses the target's credential and contacts the target, so it is audited like a
     * dispatch ({@code svc.targets.probe}): the row is begun before contact (fail-closed) and finished
     * with the outcome; refusals before contact get a finished row of their own.
     */
    public ProbeResult probe(Caller caller, String nameOrAlias) {
        UUID tenant = caller.tenantId();
        Target t = targets.describe(tenant, nameOrAlias);
        Contact contact = contact(caller, "svc.targets.probe", t, Map.of());
        LoadedConnector connector = contact.connector();
        Credential credential = contact.credential();
        long t0 = System.nanoTime();
        UUID row = contact.row();
        Map<String, Object> fingerprint;
        try {
            fingerprint = ProbeFingerprint.of(withSession(connector, t, credential, Connector::probe),
                    connector.connectorId());
        } catch (ConnectorException e) {
            fingerprint = ProbeFingerprint.failed(e, connector.connectorId(), Instant.now());
        } catch (RuntimeException | Error e) {
            audit.finish(row, "error", Optional.of("internal_error"), (System.nanoTime() - t0) / 1_000_000);
            throw e;
        }
        Optional<String> errorCode = ProbeFingerprint.errorCode(fingerprint);
        audit.finish(row, errorCode.isPresent() ? "error" : "ok", errorCode, (System.nanoTime() - t0) / 1_000_000);
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
    private Contact contact(Caller caller, String opId, Target t,
                            Map<String, Object> extras) {
        var entry = entry(caller, opId, t);
        LoadedConnector connector;
        Credential credential;
        try {
            connector = route.resolve(caller.tenantId(), t);
            credential = credential(caller.tenantId(), t);
        } catch (DomainException refused) {
            audit.record(entry, "error", Optional.of(refused.code()), Optional.empty(), Map.of());
            throw refused;
        }
        Map<String, Object> all = new LinkedHashMap<>(extras);
        all.put("connector_id", connector.connectorId());
        return new Contact(connector, credential, audit.begin(entry, all));
    }

    /** The caller's row without its agent session, as probes have always been recorded. */
    private static AuditLog.Entry entry(Caller caller, String opId, Target t) {
        return AuditLog.Entry.of(caller.tenantId(), caller.sub(), caller.kind(), AuditClass.CREDENTIAL_READ, opId)
                .target(t.name(), t.id());
    }

    /** Discovery through a seed target: contacts it with its credential, so it is audited like a probe. */
    public DiscoverResult discover(Caller caller, String product, Optional<String> seed) {
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
        DiscoveryPlan.Plan plan = new DiscoveryPlan(t, registered(tenant), route.defaultPorts(tenant),
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

    /**
     * Which connector would serve a call to the target now ({@code svc targets describe}): the resolver's choice
     * among the connectors the tenant enabled, with every connector of the product and why it was or was not
     * chosen. Nothing is contacted.
     */
    public Implementations.Explanation explain(UUID tenant, String nameOrAlias, Optional<String> opId) {
        return implementations.explain(tenant, targets.describe(tenant, nameOrAlias).resolverSubject(), opId);
    }

    private Credential credential(UUID tenant, Target t) {
        try {
            return credentials.resolve(Optional.of(tenant), t.secretRef());
        } catch (ConnectorException e) {
            throw new DomainException(ErrorKind.UPSTREAM_FAILED, e.code().wireName(), e.getMessage(), e.extras());
        }
    }

    private <T> T withSession(LoadedConnector connector, Target t, Credential credential,
                              Function<Connector, T> body) {
        return sessions.call(connector, t.spec(), credential, body);
    }
}
