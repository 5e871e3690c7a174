package dev.backplane.kernel.catalog;

import dev.backplane.kernel.catalog.ConnectorPreferences.Preference;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** SQL of {@code connector_preferences}: each tenant's preferred implementation per product. */
final class ConnectorPreferenceStore {

    private final Jdbc jdbc;

    ConnectorPreferenceStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    List<Preference> list(UUID tenant) {
        return jdbc.query("SELECT product, impl_id, set_by, set_at FROM connector_preferences WHERE tenant_id = ? "
                + "ORDER BY product", ConnectorPreferenceStore::preference, tenant);
    }

    Optional<String> implFor(UUID tenant, String product) {
        return jdbc.queryOne("SELECT impl_id FROM connector_preferences WHERE tenant_id = ? AND product = ?",
                rs -> rs.getString(1), tenant, product);
    }

    /** Sets (inserts or replaces) the preference in one statement and returns it as stored. */
    Preference upsert(UUID tenant, String product, String implId, String actor) {
        return jdbc.queryOne("""
                INSERT INTO connector_preferences (tenant_id, product, impl_id, set_by) VALUES (?, ?, ?, ?)
                ON CONFLICT (tenant_id, product) DO UPDATE
                   SET impl_id = EXCLUDED.impl_id, set_by = EXCLUDED.set_by, set_at = now()
                RETURNING product, impl_id, set_by, set_at""", ConnectorPreferenceStore::preference,
                tenant, product, implId, actor).orElseThrow();
    }

    /** Whether a preference was there to delete. */
    boolean delete(UUID tenant, String product) {
        return jdbc.update("DELETE FROM connector_preferences WHERE tenant_id = ? AND product = ?", tenant, product) > 0;
    }

    private static Preference preference(ResultSet rs) throws SQLException {
        return new Preference(rs.getString(1), rs.getString(2), rs.getString(3), rs.getTimestamp(4).toInstant());
    }
}
