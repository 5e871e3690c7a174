package dev.backplane.kernel.catalog;

import dev.backplane.kernel.catalog.Implementations.Candidate;
import dev.backplane.kernel.catalog.Implementations.Subject;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.plugins.LoadedConnector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Whether a connector can serve a call to a target, and why not: it serves the target's product, a supported range
 * holds the target's version (once known), the tenant enabled it, and it offers the operation; and the refusal
 * ({@code no_connector}) when none does.
 */
final class ConnectorFit {

    private final CatalogService catalog;

    ConnectorFit(CatalogService catalog) {
        this.catalog = catalog;
    }

    /** The tenant's connectors of {@code product}, by connector id. */
    List<LoadedConnector> ofProduct(UUID tenant, String product) {
        return catalog.registry().all(tenant).stream().filter(c -> servesProduct(c, product))
                .sorted(Comparator.comparing(LoadedConnector::connectorId)).toList();
    }

    /** Every connector of the target's product with its verdict. */
    List<Candidate> candidates(UUID tenant, Subject target, Optional<String> opId) {
        List<Candidate> out = new ArrayList<>();
        for (LoadedConnector c : ofProduct(tenant, target.product())) {
            Optional<String> why = rejection(tenant, c, target, opId);
            out.add(new Candidate(c.connectorId(), why.isEmpty(), why.orElse(target.version()
                    .map(v -> "supports version " + v).orElse("serves the product") + " " + c.descriptor()
                    .supportedVersions())));
        }
        return out;
    }

    /** Why {@code c} cannot serve the call, or empty when it can. */
    Optional<String> rejection(UUID tenant, LoadedConnector c, Subject target, Optional<String> opId) {
        if (!servesProduct(c, target.product())) {
            return Optional.of("does not serve product '" + target.product() + "'");
        }
        if (!servesTarget(c, target)) {
            return Optional.of("supports " + c.descriptor().supportedVersions() + ", not version "
                    + target.version().orElseThrow());
        }
        String status = catalog.status(tenant, c.connectorId());
        if (!status.equals(ReviewStatus.ENABLED.wireName())) {
            return Optional.of("is not enabled for this tenant (" + status + ")");
        }
        if (opId.isPresent() && c.catalog().operations().stream().noneMatch(o -> o.opId().equals(opId.get()))) {
            return Optional.of("has no operation " + opId.get());
        }
        return Optional.empty();
    }

    static boolean servesProduct(LoadedConnector c, String product) {
        return c.descriptor().products().stream().anyMatch(p -> p.token().equals(product));
    }

    /** The product, and (once the version is known) a supported range holding it. */
    static boolean servesTarget(LoadedConnector c, Subject target) {
        if (!servesProduct(c, target.product())) {
            return false;
        }
        if (target.version().isEmpty()) {
            return true;
        }
        return anyHolds(c.descriptor().supportedVersions(), target.version().get());
    }

    /** Whether one of the supported ranges holds {@code version}; a range the plugin declared badly holds nothing. */
    static boolean anyHolds(List<String> supportedVersions, String version) {
        for (String range : supportedVersions) {
            try {
                if (VersionRange.parse(range).contains(version)) {
                    return true;
                }
            } catch (IllegalArgumentException unparsable) {
                // a range the plugin declared badly holds nothing
            }
        }
        return false;
    }

    /** {@code no_connector}, with every connector of the product and why it does not serve. */
    DomainException noConnector(UUID tenant, Subject target, Optional<String> opId) {
        return CatalogErrors.NO_CONNECTOR.error(noConnectorMessage(target, opId), Map.of("product", target.product(),
                "version", target.version().orElse(""), "version_source", target.versionSource(),
                "candidates", candidates(tenant, target, opId).stream().map(c -> Map.of("connector_id", c.connectorId(),
                        "serves", c.serves(), "reason", c.reason())).toList()));
    }

    static String noConnectorMessage(Subject target, Optional<String> opId) {
        return "no enabled connector serves target " + target.name() + " (product '" + target.product() + "', "
                + target.version().map(v -> "version " + v + (target.versionSource().equals("fingerprint") ? " (probed)"
                        : " (asserted)"))
                .orElse("version unknown: probe it or assert its version")
                + ")" + opId.map(op -> " with operation " + op).orElse("") + "; see extras.candidates";
    }
}
