package dev.backplane.kernel.catalog;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.plugin.api.ConnectorDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The resolver at dispatch (SPEC "Versioning"): which enabled connector serves a call to a target. The
 * connector the caller names is honoured when it serves the target — its product, and its supported ranges
 * hold the target's version (the probed fingerprint's, else the operator-asserted one) — and the tenant enabled
 * it. Otherwise the call goes to the one enabled connector of the target's product whose ranges hold that
 * version and that offers the same operation, chosen by {@link Resolver} (the target's
 * {@code preferred_impl_id}, then the tenant's preference, then the most specific range); the audit row and
 * the result name both the requested and the resolved connector. When none qualifies the call is refused with
 * {@code no_connector}, listing each connector that was considered and why it was rejected.
 *
 * <p>Before the first probe, with no asserted version, a named connector of the target's product is honoured
 * as is: nothing is known that could contradict the caller.
 */
public final class Implementations {

    /**
     * What the resolver knows of a target.
     *
     * @param name the target's name
     * @param product its product token
     * @param version the probed version, else the asserted one
     * @param versionSource {@code fingerprint} (probed), {@code asserted} (the target's version field) or
     *        {@code unknown}
     * @param preferredImplId the target's preferred_impl_id
     */
    public record Subject(String name, String product, Optional<String> version, String versionSource,
                          Optional<String> preferredImplId) {
    }

    /**
     * The connector a call goes to.
     *
     * @param connector the resolved connector
     * @param requestedConnectorId what the caller named
     * @param reason why it serves (for the audit row, the result and {@code svc targets describe})
     */
    public record Choice(LoadedConnector connector, String requestedConnectorId, String reason) {

        public boolean rerouted() {
            return !connector.connectorId().equals(requestedConnectorId);
        }

        /** What the audit row and the result envelope carry when the call went elsewhere than named. */
        public Map<String, Object> extras() {
            if (!rerouted()) {
                return Map.of();
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("requested_connector_id", requestedConnectorId);
            out.put("resolved_connector_id", connector.connectorId());
            out.put("resolution", reason);
            return out;
        }
    }

    /**
     * One connector the resolver looked at.
     *
     * @param connectorId the connector
     * @param serves whether it could serve the target
     * @param reason why it can or why it was rejected
     */
    public record Candidate(String connectorId, boolean serves, String reason) {
    }

    /**
     * The explanation {@code svc targets describe} shows.
     *
     * @param target the target's name
     * @param product its product
     * @param version the version the resolver used, if known
     * @param versionSource where that version came from
     * @param connectorId the connector that would serve a call, if one does
     * @param reason why, or why none does
     * @param errorCode {@code no_connector} or {@code ambiguous_connector} when none is chosen
     * @param candidates every connector of the product with its verdict
     * @param tenantPreference the tenant's preferred implementation for the product, if set
     */
    public record Explanation(String target, String product, Optional<String> version, String versionSource,
                              Optional<String> connectorId, String reason, Optional<String> errorCode,
                              List<Candidate> candidates, Optional<String> tenantPreference) {
    }

    private final CatalogService catalog;
    private final ConnectorPreferences preferences;
    private final ConnectorFit fit;

    public Implementations(CatalogService catalog, ConnectorPreferences preferences) {
        this.catalog = catalog;
        this.preferences = preferences;
        this.fit = new ConnectorFit(catalog);
    }

    public ConnectorPreferences preferences() {
        return preferences;
    }

    /**
     * The connector that serves {@code opId} on the target, starting from the one the caller named.
     *
     * @throws DomainException {@code unknown_connector} for a name no connector has,
     *         {@code no_connector} (501) when no enabled connector serves the target with that operation,
     *         {@code ambiguous_connector} (409) when several fit equally
     */
    public Choice forCall(UUID tenant, Subject target, String requestedConnectorId, String opId) {
        LoadedConnector named = catalog.registry().require(tenant, requestedConnectorId);
        Optional<String> namedRejection = fit.rejection(tenant, named, target, Optional.of(opId));
        if (namedRejection.isEmpty()) {
            return new Choice(named, requestedConnectorId, target.version().isEmpty()
                    ? "the named connector serves product '" + target.product() + "' (the target's version is not known)"
                    : "the named connector supports version " + target.version().get());
        }
        List<LoadedConnector> fitting = new ArrayList<>();
        for (LoadedConnector c : fit.ofProduct(tenant, target.product())) {
            if (fit.rejection(tenant, c, target, Optional.of(opId)).isEmpty()) {
                fitting.add(c);
            }
        }
        if (fitting.isEmpty() && ConnectorFit.servesTarget(named, target) && named.catalog().operations().stream()
                .anyMatch(o -> o.opId().equals(opId))) {
            // the named connector serves the target but the tenant has not enabled it, and nothing else does:
            // the policy gate refuses it and says so (connector not enabled), as it always has
            return new Choice(named, requestedConnectorId, "the named connector serves the target (not enabled)");
        }
        if (fitting.isEmpty() && !ConnectorFit.servesProduct(named, target.product())) {
            throw CatalogErrors.CONNECTOR_PRODUCT_MISMATCH.error("connector "
                    + requestedConnectorId + " does not serve product '" + target.product() + "' of target "
                    + target.name() + ", and no enabled connector of that product offers " + opId,
                    Map.of("product", target.product(), "candidates", fit.candidates(tenant, target, Optional.of(opId))));
        }
        Resolution r = Resolver.resolve(query(tenant, target), fitting.stream().map(LoadedConnector::descriptor).toList());
        return switch (r) {
            case Resolution.Resolved ok -> new Choice(catalog.registry().require(tenant, ok.connectorId()),
                    requestedConnectorId, requestedConnectorId + " " + namedRejection.get() + "; "
                    + ok.connectorId() + " serves it (" + ok.reason() + ")");
            case Resolution.NoConnector none -> throw fit.noConnector(tenant, target, Optional.of(opId));
            case Resolution.Ambiguous tie -> throw ambiguous(target, tie);
        };
    }

    /** Which connector would serve a call to the target (for any operation, or {@code opId}), and why. */
    public Explanation explain(UUID tenant, Subject target, Optional<String> opId) {
        List<Candidate> candidates = fit.candidates(tenant, target, opId);
        Optional<String> preference = preferences.implFor(tenant, target.product());
        List<ConnectorDescriptor> fitting = fit.ofProduct(tenant, target.product()).stream()
                .filter(c -> fit.rejection(tenant, c, target, opId).isEmpty()).map(LoadedConnector::descriptor).toList();
        Resolution r = Resolver.resolve(query(tenant, target, preference), fitting);
        return switch (r) {
            case Resolution.Resolved ok -> new Explanation(target.name(), target.product(), target.version(),
                    target.versionSource(), Optional.of(ok.connectorId()), ok.reason(), Optional.empty(), candidates,
                    preference);
            case Resolution.NoConnector none -> new Explanation(target.name(), target.product(), target.version(),
                    target.versionSource(), Optional.empty(), ConnectorFit.noConnectorMessage(target, opId), Optional.of("no_connector"),
                    candidates, preference);
            case Resolution.Ambiguous tie -> new Explanation(target.name(), target.product(), target.version(),
                    target.versionSource(), Optional.empty(), ambiguous(target, tie).getMessage(),
                    Optional.of("ambiguous_connector"), candidates, preference);
        };
    }

    private Resolver.Query query(UUID tenant, Subject target) {
        return query(tenant, target, preferences.implFor(tenant, target.product()));
    }

    private static Resolver.Query query(UUID tenant, Subject target, Optional<String> preference) {
        return new Resolver.Query(target.product(), target.version(), target.preferredImplId(), preference);
    }

    private static DomainException ambiguous(Subject target, Resolution.Ambiguous tie) {
        return CatalogErrors.AMBIGUOUS_CONNECTOR.error("several implementations serve target " + target.name()
                + " equally: " + tie.candidates() + "; set the target's preferred_impl_id or the tenant's preference "
                + "(svc connector prefer " + target.product() + " <impl_id>)", Map.of("candidates", tie.candidates()));
    }
}
