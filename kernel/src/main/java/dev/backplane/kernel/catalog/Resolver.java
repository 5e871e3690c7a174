package dev.backplane.kernel.catalog;

import dev.backplane.plugin.api.ConnectorDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Picks the implementation that serves a target (SPEC "Versioning"): among the connectors that
 * serve its product and whose supported ranges hold its version — the probed fingerprint's, else the
 * operator-asserted one, else any range that accepts every version — the target's
 * {@code preferred_impl_id} wins, then the tenant's preferred implementation for the product, then
 * the most specific range, then — among releases of one implementation — the newest release; different
 * implementations still tied are ambiguous ({@code ambiguous_connector}: a person breaks the tie with the
 * target's preferred_impl_id or the tenant's preference, never the backplane by guessing).
 */
public final class Resolver {

    /**
     * What the resolver knows of a target.
     *
     * @param product the registered product token
     * @param version the probed version, else the asserted one
     * @param preferredImplId the target's preferred_impl_id
     * @param tenantPreferredImplId the tenant's preferred implementation for this product
     */
    public record Query(String product, Optional<String> version, Optional<String> preferredImplId,
                        Optional<String> tenantPreferredImplId) {
    }

    private record Candidate(ConnectorDescriptor descriptor, int specificity) {
    }

    private Resolver() {
    }

    private static int compareVersions(String a, String b) {
        int[] x = VersionRange.numbers(a).orElse(new int[0]);
        int[] y = VersionRange.numbers(b).orElse(new int[0]);
        return VersionRange.compare(x, y);
    }

    public static Resolution resolve(Query q, List<ConnectorDescriptor> connectors) {
        List<ConnectorDescriptor> serving = connectors.stream()
                .filter(d -> d.products().stream().anyMatch(p -> p.token().equals(q.product()))).toList();
        if (serving.isEmpty()) {
            return new Resolution.NoConnector("no connector serves product '" + q.product() + "'");
        }
        List<Candidate> fitting = new ArrayList<>();
        for (ConnectorDescriptor d : serving) {
            int best = -1;
            for (String r : d.supportedVersions()) {
                VersionRange range;
                try {
                    range = VersionRange.parse(r);
                } catch (IllegalArgumentException unparsable) {
                    continue; // a range a connector declared badly (an ingest's "latest", "1.0rc1") holds nothing
                }
                boolean fits = q.version().map(range::contains).orElse(range.specificity() == 0);
                if (fits) {
                    best = Math.max(best, range.specificity());
                }
            }
            if (best >= 0) {
                fitting.add(new Candidate(d, best));
            }
        }
        if (fitting.isEmpty()) {
            return new Resolution.NoConnector("no implementation of '" + q.product() + "' supports "
                    + q.version().map(v -> "version " + v).orElse("an unknown version (probe the target or assert its version)")
                    + "; implementations: " + serving.stream().map(d -> d.connectorId() + " " + d.supportedVersions())
                    .toList());
        }
        if (fitting.size() == 1) {
            return new Resolution.Resolved(fitting.getFirst().descriptor().connectorId(), "the only implementation that fits");
        }
        for (var pref : List.of(q.preferredImplId(), q.tenantPreferredImplId())) {
            if (pref.isPresent()) {
                List<Candidate> preferred = fitting.stream().filter(c -> c.descriptor().implId().equals(pref.get())).toList();
                if (!preferred.isEmpty()) {
                    fitting = preferred;
                    if (fitting.size() == 1) {
                        String who = pref == q.preferredImplId() ? "the target's preferred_impl_id" : "the tenant's preference";
                        return new Resolution.Resolved(fitting.getFirst().descriptor().connectorId(), who);
                    }
                }
            }
        }
        int top = fitting.stream().mapToInt(Candidate::specificity).max().orElseThrow();
        List<Candidate> best = fitting.stream().filter(c -> c.specificity() == top).toList();
        if (best.size() == 1) {
            return new Resolution.Resolved(best.getFirst().descriptor().connectorId(), "the most specific version range");
        }
        if (best.stream().map(c -> c.descriptor().implId()).distinct().count() == 1) {
            // releases of one implementation: the newest supersedes the others
            Candidate newest = best.stream().max(Comparator.comparing((Candidate c) -> c.descriptor().version(),
                    Resolver::compareVersions).thenComparing(c -> c.descriptor().connectorId())).orElseThrow();
            return new Resolution.Resolved(newest.descriptor().connectorId(), "the newest release of "
                    + newest.descriptor().implId() + " that fits");
        }
        // different implementations that fit equally: a person decides (preferred_impl_id or the tenant's preference)
        return new Resolution.Ambiguous(best.stream().map(c -> c.descriptor().connectorId())
                .sorted(Comparator.naturalOrder()).toList());
    }
}
