package dev.backplane.kernel.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.IngestedConnector;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/** SQL of ingested connectors: one row per (scope, connector id), the catalog stored whole as jsonb. */
public final class IngestStore {

    /**
     * An ingested connector as stored.
     *
     * @param tenant the owning tenant; empty for a global connector
     * @param revision SHA-256 over catalog and auth; the registry rebuilds a connector only when it changes
     * @param classificationRules the rules file's rules as applied at ingest (rule, match, set, reason, op_ids)
     * @param classificationReasons op id → why it got its class and safety (empty for a connector ingested before
     *     reasons were kept)
     */
    public record Stored(Optional<UUID> tenant, String connectorId, String engine, IngestedConnector connector,
                         JsonNode specs, List<String> warnings, String revision, Instant ingestedAt,
                         String ingestedBy, JsonNode classificationRules, Map<String, String> classificationReasons) {
    }

    private final Jdbc jdbc;

    public IngestStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    static String scope(Optional<UUID> tenant) {
        return tenant.map(UUID::toString).orElse("global");
    }

    /** The identity and revision of every stored connector: cheap, so a reload parses only what changed. */
    record Revision(Optional<UUID> tenant, String connectorId, String revision) {
    }

    List<Revision> revisions() {
        return jdbc.query("SELECT tenant_id, connector_id, revision FROM catalog_ingested_connectors "
                + "ORDER BY scope, connector_id", rs -> new Revision(Optional.ofNullable(rs.getObject(1, UUID.class)),
                rs.getString(2), rs.getString(3)));
    }

    Optional<Stored> load(Optional<UUID> tenant, String connectorId) {
        return jdbc.queryOne("SELECT * FROM catalog_ingested_connectors WHERE scope = ? AND connector_id = ?",
                IngestStore::map, scope(tenant), connectorId);
    }

    /** Whether the tenant sees an ingested connector of this id (its own or a global one). */
    boolean exists(UUID tenant, String connectorId) {
        return jdbc.queryOne("SELECT 1 FROM catalog_ingested_connectors WHERE connector_id = ? AND scope IN (?, 'global')",
                rs -> 1, connectorId, tenant.toString()).isPresent();
    }

    boolean existsInScope(Optional<UUID> tenant, String connectorId) {
        return jdbc.queryOne("SELECT 1 FROM catalog_ingested_connectors WHERE scope = ? AND connector_id = ?",
                rs -> 1, scope(tenant), connectorId).isPresent();
    }

    /**
     * What a save did.
     *
     * @param created the connector is new in its scope
     * @param reviewsReset tenants whose review went back to staged because the connector's revision changed
     */
    record Saved(boolean created, List<UUID> reviewsReset) {
    }

    /**
     * Inserts or replaces, in one transaction. When an existing connector's revision changes, every
     * review of it that this scope serves goes back to {@code staged} (per-operation overrides are
     * kept, as on disable): a tenant enabled what it reviewed, not what a later ingest put under the
     * same id. For a global connector that is every tenant without a tenant-scoped connector of the
     * same id (those tenants are served their own).
     */
    Saved save(Optional<UUID> tenant, IngestedConnector c, String engine, Object specs, List<String> warnings,
               String revision, String actor) {
        return save(tenant, c, engine, specs, warnings, revision, actor, List.of(), Map.of(), conn -> null);
    }

    /**
     * {@link #save(Optional, IngestedConnector, String, Object, List, String, String)}, keeping the rules file's
     * applied rules and each operation's classification reason with the catalog and running {@code alsoInTransaction} (the rules' audit rows) in the same
     * commit.
     */
    Saved save(Optional<UUID> tenant, IngestedConnector c, String engine, Object specs, List<String> warnings,
               String revision, String actor, List<Map<String, Object>> classificationRules,
               Map<String, String> classificationReasons, Jdbc.TxBody<Void> alsoInTransaction) {
        ConnectorDescriptor d = c.descriptor();
        Map<String, Object> catalogJson = IngestedJson.catalogJson(c.catalog());
        if (!classificationRules.isEmpty()) {
            catalogJson.put(IngestedJson.CLASSIFICATION_RULES, classificationRules);
        }
        if (!classificationReasons.isEmpty()) {
            catalogJson.put(IngestedJson.CLASSIFICATION_REASONS, new TreeMap<>(classificationReasons));
        }
        return jdbc.inTransaction(conn -> {
            Optional<String> before = Jdbc.query(conn, "SELECT revision FROM catalog_ingested_connectors WHERE scope = ? "
                    + "AND connector_id = ? FOR UPDATE", rs -> rs.getString(1), scope(tenant), d.connectorId())
                    .stream().findFirst();
            Jdbc.update(conn, """
                        INSERT INTO catalog_ingested_connectors (scope, tenant_id, connector_id, impl_id, version, product,
                               default_port, engine, base_path, auth, catalog, specs, warnings, revision, ingested_at,
                               ingested_by)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), ?)
                        ON CONFLICT (scope, connector_id) DO UPDATE SET impl_id = EXCLUDED.impl_id,
                               version = EXCLUDED.version, product = EXCLUDED.product,
                               default_port = EXCLUDED.default_port, engine = EXCLUDED.engine,
                               base_path = EXCLUDED.base_path, auth = EXCLUDED.auth, catalog = EXCLUDED.catalog,
                               specs = EXCLUDED.specs, warnings = EXCLUDED.warnings, revision = EXCLUDED.revision,
                               ingested_at = now(), ingested_by = EXCLUDED.ingested_by""",
                    scope(tenant), tenant.orElse(null), d.connectorId(), d.implId(), d.version(),
                    d.products().getFirst().token(), d.products().getFirst().defaultPort(), engine, c.basePath(),
                    Jdbc.jsonb(IngestedJson.authJson(c.auth())), Jdbc.jsonb(catalogJson), Jdbc.jsonb(specs),
                    Jdbc.jsonb(warnings), revision, actor);
            List<UUID> reset = List.of();
            if (before.isPresent() && !before.get().equals(revision)) {
                reset = tenant.isPresent()
                        ? Jdbc.query(conn, """
                            UPDATE catalog_connector_reviews SET status = 'staged', updated_at = now(), updated_by = ?
                             WHERE connector_id = ? AND tenant_id = ? AND status <> 'staged' RETURNING tenant_id""",
                            rs -> rs.getObject(1, UUID.class), actor, d.connectorId(), tenant.get())
                        : Jdbc.query(conn, """
                            UPDATE catalog_connector_reviews r SET status = 'staged', updated_at = now(), updated_by = ?
                             WHERE r.connector_id = ? AND r.status <> 'staged'
                               AND NOT EXISTS (SELECT 1 FROM catalog_ingested_connectors i
                                                WHERE i.connector_id = r.connector_id AND i.tenant_id = r.tenant_id)
                            RETURNING r.tenant_id""", rs -> rs.getObject(1, UUID.class), actor, d.connectorId());
            }
            alsoInTransaction.run(conn);
            return new Saved(before.isEmpty(), reset);
        });
    }

    private static Map<String, String> reasons(JsonNode n) {
        Map<String, String> out = new HashMap<>();
        n.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return Map.copyOf(out);
    }

    private static Stored map(ResultSet rs) throws SQLException {
        try {
            JsonNode auth = JsonMapping.mapper().readTree(rs.getString("auth"));
            JsonNode catalog = JsonMapping.mapper().readTree(rs.getString("catalog"));
            List<String> secretFields = new ArrayList<>();
            auth.path("secret_fields").forEach(f -> secretFields.add(f.asText()));
            Map<String, String> settings = new LinkedHashMap<>();
            auth.path("settings").properties().forEach(e -> settings.put(e.getKey(), e.getValue().asText()));
            String product = rs.getString("product");
            String version = rs.getString("version");
            ConnectorDescriptor d = new ConnectorDescriptor(rs.getString("impl_id"), version,
                    List.of(new ConnectorDescriptor.Product(product, rs.getInt("default_port"))), List.of(version),
                    secretFields);
            IngestedConnector c = new IngestedConnector(d, IngestedJson.decodeCatalog(catalog), rs.getString("base_path"),
                    new AuthScheme(auth.path("scheme").asText(), secretFields, settings));
            List<String> warnings = new ArrayList<>();
            JsonMapping.mapper().readTree(rs.getString("warnings")).forEach(w -> warnings.add(w.asText()));
            Timestamp at = rs.getTimestamp("ingested_at");
            return new Stored(Optional.ofNullable(rs.getObject("tenant_id", UUID.class)), rs.getString("connector_id"),
                    rs.getString("engine"), c, JsonMapping.mapper().readTree(rs.getString("specs")), List.copyOf(warnings),
                    rs.getString("revision"), at.toInstant(), rs.getString("ingested_by"),
                    catalog.path(IngestedJson.CLASSIFICATION_RULES), reasons(catalog.path(IngestedJson.CLASSIFICATION_REASONS)));
        } catch (JsonProcessingException e) {
            throw new SQLException("stored ingested connector is not valid JSON: " + e.getMessage(), e);
        }
    }
}
