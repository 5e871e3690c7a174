package dev.backplane.kernel.catalog;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.plugins.LoadedConnector;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A tenant's preferred implementation per product (SPEC "Versioning"): the second tie-break of the
 * resolver, after the target's {@code preferred_impl_id} and before the most specific version range.
 * Read by probe and dispatch only when more than one implementation fits, so it is not cached: a change
 * is seen by the next call on every replica.
 */
public final class ConnectorPreferences {

    /**
     * One preference.
     *
     * @param product the product token
     * @param implId the implementation preferred for it
     * @param setBy who set it
     * @param setAt when
     */
    public record Preference(String product, String implId, String setBy, Instant setAt) {
    }

    private final ConnectorPreferenceStore store;
    private final ConnectorRegistry registry;

    public ConnectorPreferences(Jdbc jdbc, ConnectorRegistry registry) {
        this.store = new ConnectorPreferenceStore(jdbc);
        this.registry = registry;
    }

    public List<Preference> list(UUID tenant) {
        return store.list(tenant);
    }

    public Optional<String> implFor(UUID tenant, String product) {
        return store.implFor(tenant, product);
    }

    /**
     * Sets the tenant's preference for {@code product}.
     *
     * @throws DomainException {@code unknown_product} when no connector this tenant
     *         sees serves the product, {@code unknown_impl} when no implementation of that name does
     */
    public Preference set(UUID tenant, String product, String implId, String actor) {
        List<LoadedConnector> serving = registry.all(tenant).stream()
                .filter(c -> c.descriptor().products().stream().anyMatch(p -> p.token().equals(product))).toList();
        if (serving.isEmpty()) {
            TreeSet<String> valid = new TreeSet<>();
            registry.all(tenant).forEach(c -> c.descriptor().products().forEach(p -> valid.add(p.token())));
            throw CatalogErrors.UNKNOWN_PRODUCT.error("product '" + product + "' is not served by any connector; use "
                    + "the exact product token", Map.of("field", "product", "valid_products", List.copyOf(valid)));
        }
        if (serving.stream().noneMatch(c -> c.descriptor().implId().equals(implId))) {
            throw CatalogErrors.UNKNOWN_IMPL.error("no implementation '" + implId + "' serves product '" + product + "'",
                    Map.of("field", "impl_id", "valid_impl_ids", serving.stream().map(c -> c.descriptor().implId())
                            .distinct().sorted().toList()));
        }
        return store.upsert(tenant, product, implId, actor);
    }

    /** @throws DomainException {@code preference_not_found} when none is set */
    public void clear(UUID tenant, String product) {
        if (!store.delete(tenant, product)) {
            throw CatalogErrors.PREFERENCE_NOT_FOUND.error("no preference is set for product '" + product + "'",
                    Map.of("product", product));
        }
    }
}
