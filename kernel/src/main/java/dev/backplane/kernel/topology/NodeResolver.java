package dev.backplane.kernel.topology;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.targets.TargetService;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Turns the names callers write into nodes. A name with a kind is that node (created when missing; kind
 * {@code target} must name a registered target, by name or alias). A name without a kind is whatever
 * it already unambiguously names: an existing node of that name, or a target (targets are nodes
 * automatically). Two candidates are {@code 422 ambiguous_node}; none is {@code 422 node_kind_required}.
 */
final class NodeResolver {

    /** A node as written: its name and, optionally, its kind. */
    record Ref(String name, String kind) {
    }

    private final TargetService targets;

    NodeResolver(TargetService targets) {
        this.targets = targets;
    }

    /** The canonical name of the target a name or alias names, if any. */
    Optional<Target> target(UUID tenant, String nameOrAlias) {
        try {
            return Optional.of(targets.describe(tenant, nameOrAlias));
        } catch (DomainException notATarget) {
            return Optional.empty();
        }
    }

    /**
     * Resolves every ref (creating nodes that are named with a kind and do not exist yet). Problems are
     * collected per ref in {@code problems} (keyed by the ref) instead of thrown, so a bulk import
     * reports all of them at once. Targets are looked up in one statement on the write's own connection
     * (not one pooled connection per name while the write transaction waits).
     */
    Map<Ref, TenantGraph.NodeRef> resolve(Connection c, UUID tenant, Set<Ref> refs, String actor, Instant at,
                                          Map<Ref, DomainException> problems) throws SQLException {
        Set<String> names = new LinkedHashSet<>();
        refs.forEach(r -> names.add(r.name()));
        Map<String, List<TenantGraph.NodeRef>> existing = new HashMap<>();
        for (TenantGraph.NodeRef n : TopologyNodeStore.nodesNamed(c, tenant, names)) {
            existing.computeIfAbsent(n.name(), k -> new ArrayList<>()).add(n);
        }
        Set<String> maybeTargets = new LinkedHashSet<>();
        refs.stream().filter(r -> r.kind() == null || r.kind().equals(Vocabulary.TARGET))
                .forEach(r -> maybeTargets.add(r.name()));
        Map<String, String> targetNames = TopologyNodeStore.targetNames(c, tenant, maybeTargets);
        Map<Ref, List<String>> keyOf = new HashMap<>();
        for (Ref r : refs) {
            try {
                keyOf.put(r, key(r, existing.getOrDefault(r.name(), List.of()), Optional.ofNullable(targetNames.get(r.name()))));
            } catch (DomainException e) {
                problems.put(r, e);
            }
        }
        List<String> kinds = new ArrayList<>();
        List<String> keyNames = new ArrayList<>();
        new LinkedHashSet<>(keyOf.values()).forEach(k -> {
            kinds.add(k.get(0));
            keyNames.add(k.get(1));
        });
        Map<List<String>, TenantGraph.NodeRef> nodes = new HashMap<>();
        if (!kinds.isEmpty()) {
            for (TenantGraph.NodeRef n : TopologyNodeStore.ensureNodes(c, tenant, kinds, keyNames, actor, at)) {
                nodes.put(List.of(n.kind(), n.name()), n);
            }
        }
        Map<Ref, TenantGraph.NodeRef> out = new HashMap<>();
        keyOf.forEach((ref, key) -> out.put(ref, nodes.get(key)));
        return out;
    }

    /** The (kind, name) key a ref names; {@code target} is the canonical name of the target it names, if any. */
    private static List<String> key(Ref r, List<TenantGraph.NodeRef> named, Optional<String> target) {
        if (r.kind() != null) {
            if (r.kind().equals(Vocabulary.TARGET)) {
                String t = target.orElseThrow(() -> TopologyErrors.NODE_NOT_FOUND.error(
                        "no target is named '" + r.name() + "'", Map.of("node", r.name())));
                return List.of(Vocabulary.TARGET, t);
            }
            return List.of(r.kind(), r.name());
        }
        Set<List<String>> candidates = new LinkedHashSet<>();
        named.forEach(n -> candidates.add(List.of(n.kind(), n.name())));
        target.ifPresent(t -> candidates.add(List.of(Vocabulary.TARGET, t)));
        if (candidates.size() > 1) {
            List<String> kinds = candidates.stream().map(k -> k.get(0)).toList();
            throw TopologyErrors.AMBIGUOUS_NODE.error("'" + r.name() + "' names nodes of kinds " + String.join(", ", kinds)
                    + "; give its kind", Map.of("node", r.name(), "kinds", kinds));
        }
        if (candidates.isEmpty()) {
            throw TopologyErrors.NODE_KIND_REQUIRED.error("no node or target is named '" + r.name() + "'; give its kind "
                    + "to create it (for example " + String.join(", ", Vocabulary.WELL_KNOWN_NODE_KINDS.subList(1, 6))
                    + ")", Map.of("node", r.name()));
        }
        return candidates.iterator().next();
    }
}
