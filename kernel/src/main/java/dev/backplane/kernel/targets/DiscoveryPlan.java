package dev.backplane.kernel.targets;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns what a connector's {@link dev.backplane.plugin.api.Discovery} saw into an importable plan: the
 * candidates {@code svc targets import} would accept as they are, and the rest listed with the reason
 * they are not importable. Each name becomes a DNS-1123 label (unique against the tenant's names and
 * aliases and the plan's own), a member seen twice (same product, host and port) or already registered
 * is listed once, the seed target itself is marked, and every candidate is validated exactly as an
 * import validates a new target (product advertised, host, SSRF guard, TLS options, secret_ref scope).
 * Candidates of the seed's product inherit its TLS trust (verify_tls, tls_ca_pin) and extras.scheme
 * unless the connector set them: members of one cluster share a CA (Proxmox VE's pve-root-ca,
 * Kubernetes' cluster CA). Nothing is registered.
 */
final class DiscoveryPlan {

    /** More candidates than this are counted as omitted, not checked (each check may resolve a name). */
    static final int MAX_CANDIDATES = 1000;
    /**
     * A candidate that is not importable as it is.
     *
     * @param candidate its fields, as far as they could be read
     * @param reason why: seed_target, no_product, duplicate_candidate, already_registered, invalid_candidate,
     *     or the code an import would answer (unknown_product, ssrf_refused, invalid_host, ...)
     * @param message the reason in words
     */
    record Skipped(Map<String, Object> candidate, String reason, String message) {
    }

    /** The plan: importable candidates, the rest, and how many were beyond {@link #MAX_CANDIDATES}. */
    record Plan(List<Map<String, Object>> candidates, List<Skipped> skipped, int omitted) {
    }

    private final Target seed;
    private final Map<String, Integer> defaultPorts;
    private final Function<TargetFields, Optional<DomainException>> problem;
    private final Set<String> taken = new HashSet<>();
    private final Map<String, String> registeredAt = new HashMap<>();
    private final Map<String, String> plannedAt = new HashMap<>();

    /**
     * @param seed the seed target
     * @param registered the tenant's targets
     * @param defaultPorts each product's default port
     * @param problem what an import would refuse about a new target with these fields, if anything
     */
    DiscoveryPlan(Target seed, List<Target> registered, Map<String, Integer> defaultPorts,
                  Function<TargetFields, Optional<DomainException>> problem) {
        this.seed = seed;
        this.defaultPorts = defaultPorts;
        this.problem = problem;
        for (Target t : registered) {
            taken.add(t.name());
            taken.addAll(t.aliases());
            registeredAt.putIfAbsent(address(t.product(), t.host(), t.port()), t.name());
        }
    }

    /** The plan for what the connector found (a list of maps, though a plugin may hand back anything). */
    Plan of(List<?> found) {
        List<Map<String, Object>> candidates = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        int omitted = Math.max(0, found.size() - MAX_CANDIDATES);
        for (Object item : found.subList(0, found.size() - omitted)) {
            Map<String, Object> raw = new LinkedHashMap<>();
            if (item instanceof Map<?, ?> m) {
                m.forEach((k, v) -> raw.put(String.valueOf(k), v));
            }
            Map<String, Object> c = DiscoveryCandidates.fields(raw);
            Optional<Skipped> refused = refusal(raw, c);
            if (refused.isPresent()) {
                skipped.add(refused.get());
            } else {
                candidates.add(c);
            }
        }
        return new Plan(List.copyOf(candidates), List.copyOf(skipped), omitted);
    }

    /** Why {@code c} (normalised from {@code raw}) is not importable; empty when it is (and then its name is taken). */
    private Optional<Skipped> refusal(Map<String, Object> raw, Map<String, Object> c) {
        String product = DiscoveryCandidates.text(c.get("product"));
        String host = DiscoveryCandidates.text(c.get("host"));
        if (host.isEmpty()) {
            return skip(c, "invalid_candidate", "the connector gave no host");
        }
        Integer port = c.get("port") instanceof Integer p ? p : product.isEmpty() ? null : defaultPorts.get(product);
        String address = address(product, host, port == null ? -1 : port);
        if (Boolean.TRUE.equals(raw.get("seed")) || address.equals(address(seed.product(), seed.host(), seed.port()))) {
            return skip(c, "seed_target", "this is the seed target " + seed.name() + " itself");
        }
        if (product.isEmpty()) {
            return skip(c, "no_product", "the connector cannot tell which product serves it; set product (and "
                    + "check host and port) to import it");
        }
        if (plannedAt.containsKey(address)) {
            return skip(c, "duplicate_candidate", "same product, host and port as candidate " + plannedAt.get(address));
        }
        plannedAt.put(address, DiscoveryCandidates.text(c.get("name")));
        if (registeredAt.containsKey(address)) {
            return skip(c, "already_registered", "registered as target " + registeredAt.get(address));
        }
        String name = free(DiscoveryCandidates.text(c.get("name")));
        c.put("name", name);
        plannedAt.put(address, name);
        if (c.get("aliases") instanceof List<?> aliases) {
            List<String> free = aliases.stream().map(String::valueOf).filter(a -> !a.equals(name) && !taken.contains(a))
                    .toList();
            if (free.isEmpty()) {
                c.remove("aliases");
            } else {
                c.put("aliases", free);
            }
        }
        if (product.equals(seed.product())) {
            inheritTrust(c);
        }
        TargetFields fields;
        try {
            fields = JsonMapping.mapper().convertValue(c, TargetFields.class);
        } catch (IllegalArgumentException e) {
            return skip(c, "invalid_candidate", "a field has the wrong type: " + firstLine(e.getMessage()));
        }
        Optional<DomainException> refused = problem.apply(fields);
        if (refused.isPresent()) {
            return skip(c, refused.get().code(), refused.get().getMessage());
        }
        taken.add(name);
        if (c.get("aliases") instanceof List<?> aliases) {
            aliases.forEach(a -> taken.add(String.valueOf(a)));
        }
        return Optional.empty();
    }

    private void inheritTrust(Map<String, Object> c) {
        if (!c.containsKey("verify_tls") && !c.containsKey("tls_ca_pin")) {
            if (!seed.verifyTls()) {
                c.put("verify_tls", false);
            }
            seed.tlsCaPin().ifPresent(pin -> c.put("tls_ca_pin", pin));
        }
        Object scheme = seed.extras().get("scheme");
        if (scheme != null) {
            @SuppressWarnings("unchecked")
            Map<String, Object> extras = c.get("extras") instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m)
                    : new LinkedHashMap<>();
            extras.putIfAbsent("scheme", scheme);
            c.put("extras", extras);
        }
        DiscoveryCandidates.reorder(c);
    }

    private static Optional<Skipped> skip(Map<String, Object> c, String reason, String message) {
        return Optional.of(new Skipped(c, reason, message));
    }

    /** {@code name}, or {@code name-2}, {@code name-3} ... when it is taken (by a target, an alias or the plan). */
    private String free(String name) {
        String base = name.isEmpty() ? "target" : name;
        String candidate = base;
        for (int i = 2; taken.contains(candidate); i++) {
            String suffix = "-" + i;
            int keep = Math.min(base.length(), DiscoveryCandidates.NAME_MAX - suffix.length());
            candidate = base.substring(0, keep).replaceAll("-+$", "") + suffix;
        }
        return candidate;
    }

    private static String address(String product, String host, int port) {
        String h = host.toLowerCase(Locale.ROOT).replaceAll("^\\[|]$", "").replaceAll("\\.$", "");
        return product + " " + h + " " + port;
    }

    private static String firstLine(String s) {
        String t = String.valueOf(s);
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }
}
