package dev.backplane.kernel.catalog;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.SharedCache;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** SQL for review state: per tenant, the connector's status, per-operation overrides and group edits. */
final class ReviewStore {

    /** A tenant's override of one operation; empty fields keep the plugin's value. */
    record OpOverride(Optional<String> customDescription, Optional<String> safetyLevel,
                      Optional<Boolean> requiresApproval, Optional<Boolean> isEnabled, Optional<String> opClass) {
        /** An override that leaves the class alone. */
        OpOverride(Optional<String> customDescription, Optional<String> safetyLevel,
                   Optional<Boolean> requiresApproval, Optional<Boolean> isEnabled) {
            this(customDescription, safetyLevel, requiresApproval, isEnabled, Optional.empty());
        }
    }

    /** A tenant's edit of one group. */
    record GroupEdit(Optional<String> displayName, Optional<String> whenToUse) {
    }

    /** What the dispatch path reads per call, cached per (tenant, connector) and invalidated by every write. */
    private record State(ReviewStatus status, Map<String, OpOverride> overrides) {
    }

    static final String TOPIC = "catalog.review";

    private final Jdbc jdbc;
    private final SharedCache<State> states;

    ReviewStore(Jdbc jdbc, ChangeFeed feed) {
        this.jdbc = jdbc;
        this.states = new SharedCache<>(feed, TOPIC, 10_000);
    }

    static String key(UUID tenant, String connectorId) {
        return tenant + "/" + connectorId;
    }

    private State state(UUID tenant, String connectorId) {
        return states.get(key(tenant, connectorId), () -> new State(
                jdbc.queryOne("SELECT status FROM catalog_connector_reviews WHERE tenant_id = ? AND connector_id = ?",
                        rs -> ReviewStatus.of(rs.getString(1)), tenant, connectorId).orElse(ReviewStatus.STAGED),
                Map.copyOf(loadOverrides(tenant, connectorId))));
    }

    private void changed(UUID tenant, String connectorId) {
        states.changed(key(tenant, connectorId));
    }

    Map<String, ReviewStatus> statuses(UUID tenant) {
        Map<String, ReviewStatus> out = new HashMap<>();
        jdbc.query("SELECT connector_id, status FROM catalog_connector_reviews WHERE tenant_id = ?",
                rs -> out.put(rs.getString(1), ReviewStatus.of(rs.getString(2))), tenant);
        return out;
    }

    /** The connector's status; no review row means staged. */
    ReviewStatus status(UUID tenant, String connectorId) {
        return state(tenant, connectorId).status();
    }

    void setStatus(UUID tenant, String connectorId, ReviewStatus status, String actor) {
        jdbc.update("""
                INSERT INTO catalog_connector_reviews (tenant_id, connector_id, status, updated_at, updated_by)
                VALUES (?, ?, ?, now(), ?)
                ON CONFLICT (tenant_id, connector_id) DO UPDATE
                   SET status = EXCLUDED.status, updated_at = now(), updated_by = EXCLUDED.updated_by""",
                tenant, connectorId, status.wireName(), actor);
        changed(tenant, connectorId);
    }

    /** The tenant's overrides of the connector's operations (immutable). */
    Map<String, OpOverride> overrides(UUID tenant, String connectorId) {
        return state(tenant, connectorId).overrides();
    }

    private Map<String, OpOverride> loadOverrides(UUID tenant, String connectorId) {
        Map<String, OpOverride> out = new HashMap<>();
        jdbc.query("""
                SELECT op_id, custom_description, safety_level, requires_approval, is_enabled, op_class
                  FROM catalog_operation_overrides WHERE tenant_id = ? AND connector_id = ?""",
                rs -> out.put(rs.getString("op_id"), override(rs)), tenant, connectorId);
        return out;
    }

    /** Applies a sparse override change to one operation, in one statement. */
    void mergeOverride(UUID tenant, String connectorId, String opId, OpOverride change, boolean clearDescription,
                       String actor) {
        jdbc.update("""
                INSERT INTO catalog_operation_overrides
                       (tenant_id, connector_id, op_id, custom_description, safety_level, requires_approval, is_enabled,
                        op_class, updated_at, updated_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, now(), ?)
                ON CONFLICT (tenant_id, connector_id, op_id) DO UPDATE SET
                    custom_description = CASE WHEN ? THEN NULL
                        ELSE COALESCE(EXCLUDED.custom_description, catalog_operation_overrides.custom_description) END,
                    safety_level = COALESCE(EXCLUDED.safety_level, catalog_operation_overrides.safety_level),
                    requires_approval = COALESCE(EXCLUDED.requires_approval, catalog_operation_overrides.requires_approval),
                    is_enabled = COALESCE(EXCLUDED.is_enabled, catalog_operation_overrides.is_enabled),
                    op_class = COALESCE(EXCLUDED.op_class, catalog_operation_overrides.op_class),
                    updated_at = now(), updated_by = EXCLUDED.updated_by""",
                tenant, connectorId, opId, change.customDescription().orElse(null), change.safetyLevel().orElse(null),
                change.requiresApproval().orElse(null), change.isEnabled().orElse(null), change.opClass().orElse(null), actor,
                clearDescription);
        changed(tenant, connectorId);
    }

    /** Enables the given operations (enable-reads) in one transaction; returns how many changed. */
    int enableAll(UUID tenant, String connectorId, Collection<String> opIds, String actor) {
        int count = jdbc.inTransaction(c -> {
            int changed = 0;
            for (String opId : opIds) {
                changed += Jdbc.update(c, """
                        INSERT INTO catalog_operation_overrides (tenant_id, connector_id, op_id, is_enabled, updated_at,
                                                                 updated_by)
                        VALUES (?, ?, ?, true, now(), ?)
                        ON CONFLICT (tenant_id, connector_id, op_id) DO UPDATE
                           SET is_enabled = true, updated_at = now(), updated_by = EXCLUDED.updated_by
                         WHERE catalog_operation_overrides.is_enabled IS DISTINCT FROM true""",
                        tenant, connectorId, opId, actor);
            }
            return changed;
        });
        changed(tenant, connectorId);
        return count;
    }

    Map<String, GroupEdit> groupEdits(UUID tenant, String connectorId) {
        Map<String, GroupEdit> out = new HashMap<>();
        jdbc.query("""
                SELECT group_key, display_name, when_to_use FROM catalog_group_edits
                 WHERE tenant_id = ? AND connector_id = ?""",
                rs -> out.put(rs.getString(1), new GroupEdit(Optional.ofNullable(rs.getString(2)),
                        Optional.ofNullable(rs.getString(3)))), tenant, connectorId);
        return out;
    }

    void mergeGroupEdit(UUID tenant, String connectorId, String groupKey, GroupEdit edit, String actor) {
        jdbc.update("""
                INSERT INTO catalog_group_edits (tenant_id, connector_id, group_key, display_name, when_to_use,
                                                 updated_at, updated_by)
                VALUES (?, ?, ?, ?, ?, now(), ?)
                ON CONFLICT (tenant_id, connector_id, group_key) DO UPDATE SET
                    display_name = COALESCE(EXCLUDED.display_name, catalog_group_edits.display_name),
                    when_to_use = COALESCE(EXCLUDED.when_to_use, catalog_group_edits.when_to_use),
                    updated_at = now(), updated_by = EXCLUDED.updated_by""",
                tenant, connectorId, groupKey, edit.displayName().orElse(null), edit.whenToUse().orElse(null), actor);
    }

    private static OpOverride override(ResultSet rs) throws SQLException {
        Boolean approval = (Boolean) rs.getObject("requires_approval");
        Boolean enabled = (Boolean) rs.getObject("is_enabled");
        return new OpOverride(Optional.ofNullable(rs.getString("custom_description")),
                Optional.ofNullable(rs.getString("safety_level")), Optional.ofNullable(approval),
                Optional.ofNullable(enabled), Optional.ofNullable(rs.getString("op_class")));
    }

}
