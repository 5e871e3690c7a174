package dev.backplane.kernel.catalog;

import dev.backplane.kernel.catalog.CatalogViews.CatalogEntry;
import dev.backplane.kernel.catalog.CatalogViews.ConnectorSummary;
import dev.backplane.kernel.catalog.CatalogViews.Implementation;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.plugin.api.ConnectorDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The connector list a tenant sees ({@code svc connector list}): its connectors with their review status and
 * enabled operations, the plugin jars that failed to load, and the catalog-index entries not ingested yet; and the
 * product catalog (each product's implementations).
 */
final class ConnectorListing {

    private final ConnectorRegistry registry;
    private final ReviewStore store;

    ConnectorListing(ConnectorRegistry registry, ReviewStore store) {
        this.registry = registry;
        this.store = store;
    }

    List<ConnectorSummary> list(UUID tenant, Optional<String> status) {
        status.ifPresent(ConnectorListing::checkFilter);
        Map<String, ReviewStatus> statuses = store.statuses(tenant);
        List<ConnectorSummary> out = new ArrayList<>();
        for (LoadedConnector c : registry.all(tenant)) {
            out.add(summary(c, statuses.getOrDefault(c.connectorId(), ReviewStatus.STAGED),
                    store.overrides(tenant, c.connectorId())));
        }
        registry.broken().forEach(b -> out.add(new ConnectorSummary(b.pluginId().orElse(b.file()), Optional.empty(),
                Optional.empty(), List.of(), List.of(), "broken", 0, 0, "plugin", Optional.of(b.file()),
                Optional.empty(), Optional.of(b.reason()))));
        Set<String> listed = new HashSet<>();
        out.forEach(c -> listed.add(c.connectorId()));
        registry.index().entries().stream().filter(e -> !listed.contains(e.connectorId()))
                .sorted(Comparator.comparing(CatalogIndex.Entry::connectorId))
                .forEach(e -> out.add(new ConnectorSummary(e.connectorId(), Optional.of(e.implId()),
                        Optional.of(e.version()), List.of(e.product()), List.of(e.version()),
                        CatalogService.NOT_INGESTED, 0, 0, "catalog", Optional.empty(), Optional.empty(),
                        Optional.of(e.description() + "; ingest it with: svc connector ingest --catalog " + e.product()
                                + "/" + e.version()))));
        return status.filter(s -> !s.equals("all")).map(s -> out.stream().filter(c -> c.status().equals(s)).toList())
                .orElse(out);
    }

    /** The list's status filter: a review status, broken, not_ingested or all. */
    static void checkFilter(String s) {
        if (!s.equals("all") && !s.equals("broken") && !s.equals(CatalogService.NOT_INGESTED)
                && !CatalogService.STATUSES.contains(s)) {
            throw CommonErrors.INVALID_STATUS.error("status must be staged, enabled, disabled, broken, "
                    + "not_ingested or all, got '" + s + "'", Map.of("field", "status"));
        }
    }

    /** A loaded connector as the list and its review show it. */
    ConnectorSummary summary(LoadedConnector c, ReviewStatus status, Map<String, ReviewStore.OpOverride> o) {
        ConnectorDescriptor d = c.descriptor();
        int enabled = (int) c.catalog().operations().stream()
                .filter(op -> o.containsKey(op.opId()) && o.get(op.opId()).isEnabled().orElse(false)).count();
        return new ConnectorSummary(d.connectorId(), Optional.of(d.implId()), Optional.of(d.version()),
                d.products().stream().map(ConnectorDescriptor.Product::token).toList(), d.supportedVersions(),
                status.wireName(), c.catalog().operations().size(), enabled,
                registry.isPlugin(d.connectorId()) ? "plugin" : "ingested",
                Optional.of(c.jar().getFileName().toString()), Optional.ofNullable(c.pluginVersion()),
                registry.problem(c));
    }

    /** Each product the tenant's connectors serve, with its default port and implementations. */
    List<CatalogEntry> catalogList(UUID tenant) {
        Map<String, List<Implementation>> byProduct = new TreeMap<>();
        Map<String, Integer> ports = new HashMap<>();
        for (LoadedConnector c : registry.all(tenant)) {
            ConnectorDescriptor d = c.descriptor();
            for (ConnectorDescriptor.Product p : d.products()) {
                byProduct.computeIfAbsent(p.token(), k -> new ArrayList<>())
                        .add(new Implementation(d.connectorId(), d.implId(), d.version(), d.supportedVersions()));
                ports.putIfAbsent(p.token(), p.defaultPort());
            }
        }
        List<CatalogEntry> out = new ArrayList<>();
        byProduct.forEach((product, impls) -> out.add(new CatalogEntry(product, ports.get(product), impls)));
        return out;
    }
}
