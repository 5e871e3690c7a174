package dev.backplane.kernel.topology;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.targets.Target;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Refreshes of discovered topology: a target is read through the {@link Discovery} of its product (as the
 * discovery principal) and what it saw is written as auto edges; on a schedule, every discoverable target
 * not refreshed within the interval, each failure recorded so it waits one interval and the others proceed.
 */
final class DiscoveryRefresh {

    private static final System.Logger LOG = System.getLogger(Topology.class.getName());

    private final TopologyStore store;
    private final TopologyWrites writes;
    private final NodeResolver resolver;
    private final WantedEdges wanted;
    private final List<Discovery> discoveries;

    DiscoveryRefresh(TopologyStore store, TopologyWrites writes, NodeResolver resolver, List<Discovery> discoveries) {
        this.store = store;
        this.writes = writes;
        this.resolver = resolver;
        this.wanted = new WantedEdges(resolver);
        this.discoveries = discoveries;
    }

    /**
     * Reads a target through its connector's read operations (dispatch pipeline, as the discovery
     * principal) and writes what it saw as auto edges; edges of this target no longer seen go stale.
     */
    Map<String, Object> refresh(UUID tenant, String targetName, String requestedBy) {
        Target t = resolver.target(tenant, targetName).orElseThrow(() -> TopologyErrors.NODE_NOT_FOUND.error(
                "no target is named '" + targetName + "'", Map.of("target", targetName)));
        Discovery d = discoveries.stream().filter(x -> x.product().equals(t.product())).findFirst().orElseThrow(() ->
                TopologyErrors.REFRESH_UNSUPPORTED.error("no discovery reads targets of product " + t.product()
                        + " yet (Kubernetes and Keycloak targets are discovered)", Map.of("target", t.name(), "product", t.product())));
        Caller system = new Caller(Topology.DISCOVERY_PRINCIPAL, Optional.empty(), Optional.of(tenant), tenant,
                Role.OPERATOR, false, PrincipalKind.HUMAN, Optional.empty());
        List<Seen> seen = d.observe(system, t);
        WriteOutcome o = writes.write(tenant, false, (c, at) -> {
            List<EdgeWrites.Want> wants = wanted.seen(c, tenant, requestedBy, seen, at);
            WriteOutcome outcome = new EdgeWrites(c, tenant, requestedBy, at).observed(t.id().toString(), wants)
                    .finish();
            TopologyStore.refreshed(c, tenant, t.id(), "ok", at);
            return outcome;
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("target", t.name());
        out.put("seen", seen.size());
        out.put("result", o.counts());
        return out;
    }

    /**
     * The scheduled refresh: every discoverable target not refreshed within {@code every}, oldest first. A
     * target whose refresh fails in any way (a refused read, a database error, a bug in a discovery) is
     * logged and recorded as refreshed with its failure, so it waits one interval and the others proceed.
     */
    int refreshDue(Duration every) {
        int done = 0;
        for (TopologyStore.DueTarget due : store.dueTargets(every, discoveryProducts())) {
            try {
                refresh(due.tenant(), due.name(), Topology.DISCOVERY_PRINCIPAL);
                done++;
            } catch (RuntimeException e) {
                String why = e instanceof DomainException || e instanceof Jdbc.DataAccessException ? e.getMessage()
                        : e.getClass().getName() + ": " + e.getMessage();
                LOG.log(System.Logger.Level.WARNING, "topology refresh of " + due.name() + " (tenant " + due.tenant()
                        + ") failed: " + why, e);
                recordFailure(due, why);
            }
        }
        return done;
    }

    private void recordFailure(TopologyStore.DueTarget due, String why) {
        try {
            store.inTransaction(c -> {
                TopologyStore.refreshed(c, due.tenant(), due.targetId(), "failed: " + why, null);
                return null;
            });
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not record the failed topology refresh of " + due.name()
                    + " (tenant " + due.tenant() + ")", e);
        }
    }

    private List<String> discoveryProducts() {
        return discoveries.stream().map(Discovery::product).toList();
    }
}
