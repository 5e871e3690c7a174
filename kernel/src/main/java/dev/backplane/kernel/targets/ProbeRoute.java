package dev.backplane.kernel.targets;

import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.ConnectorRegistry;
import dev.backplane.kernel.catalog.Implementations;
import dev.backplane.kernel.catalog.Resolution;
import dev.backplane.kernel.catalog.Resolver;
import dev.backplane.kernel.plugins.LoadedConnector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The connector a probe or discovery of a target goes through: the resolver's choice among the connectors that may
 * be given the target's credential ({@link CatalogService#probeable}), by the probed or asserted version, the
 * target's preferred implementation and the tenant's preference.
 */
final class ProbeRoute {

    private final CatalogService catalog;
    private final ConnectorRegistry registry;
    private final Implementations implementations;

    ProbeRoute(CatalogService catalog, Implementations implementations) {
        this.catalog = catalog;
        this.registry = catalog.registry();
        this.implementations = implementations;
    }

    /** The implementation to probe through, among {@link CatalogService#probeable} connectors only. */
    LoadedConnector resolve(UUID tenant, Target t) {
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
            case Resolution.NoConnector none -> throw TargetErrors.NO_CONNECTOR.error(none.message()
                    + " (among plugin connectors and the ingested connectors this tenant enabled)"
                    + "; the cached fingerprint is unchanged");
            case Resolution.Ambiguous tie -> throw TargetErrors.AMBIGUOUS_CONNECTOR.error("several implementations fit "
                    + "equally: " + tie.candidates() + "; set the target's preferred_impl_id",
                    Map.of("candidates", tie.candidates()));
        };
    }

    /** Each product's default port, as the first of the tenant's connectors advertising it declares. */
    Map<String, Integer> defaultPorts(UUID tenant) {
        Map<String, Integer> ports = new HashMap<>();
        registry.all(tenant).forEach(c -> c.descriptor().products().forEach(p -> ports.putIfAbsent(p.token(),
                p.defaultPort())));
        return ports;
    }
}
