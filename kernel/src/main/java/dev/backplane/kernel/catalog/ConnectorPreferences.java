package dev.backplane.kernel.catalog;

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

    private final Jdbc jdbc;
    private final ConnectorRegistry registry;

    public ConnectorPreferences(Jdbc jdbc, ConnectorRegistry registry) {
        this.jdbc = jdbc;
        this.registry = registry;
    }

    public List<Preference> list(UUID tenant) {
        return jdbc.query("SELECT product, impl_id, set_by, set_at FROM connector_preferences WHERE tenant_id = ? "
                + "ORDER BY product", rs -> new Preference(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getTimestamp(4).toInstant()), tenant);
    }

    public Optional<String> implFor(UUID tenant, String product) {
        return jdbc.queryOne("SELECT impl_id FROM connector_preferences WHERE tenant_id = ? AND product = ?",
                rs -> rs.getString(1), tenant, product);
    }

    /**
     * Sets the tenant's preference for {@code product}.
     *
     * @throws dev.backplane.kernel.errors.DomainException {@code unknown_product} when no connector this tenant
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
        return jdbc.queryOne("""
                INSERT INTO connector_preferences (tenant_id, product, impl_id, set_by) VALUES (?, ?, ?, ?)
                ON CONFLICT (tenant_id, product) DO UPDATE
                   SET impl_id = EXCLUDED.impl_id, set_by = EXCLUDED.set_by, set_at = now()
                RETURNING product, impl_id, set_by, set_at""", rs -> new Preference(rs.getString(1), rs.getString(2),
                rs.getString(3), rs.getTimestamp(4).toInstant()), tenant, product, implId, actor).orElseThrow();
    }

    /** @throws dev.backplane.kernel.errors.DomainException {@code preference_not_found} when none is set */
    public void clear(UUID tenant, String product) {
        if (jdbc.update("DELETE FROM connector_preferences WHERE tenant_id = ? AND product = ?", tenant, product) == 0) {
            throw CatalogErrors.PREFERENCE_NOT_FOUND.error("no preference is set for product '" + product + "'",
                    Map.of("product", product));
        }
    }
}
