package dev.backplane.kernel.docs;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.persistence.Jdbc;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The capability {@code svc-docs:<key>} (SPEC "Authentication" 9): the owner of a tenant-owned
 * collection holds it implicitly; for a global collection a platform_admin grants it per tenant.
 */
public final class DocsCapabilities {

    /** One grant of a global collection's capability to a tenant. */
    public record Grant(String collection, String capability, UUID tenantId, String grantedBy, Instant grantedAt) {
    }

    private final Jdbc jdbc;

    DocsCapabilities(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public boolean holds(UUID tenant, DocCollection d) {
        return d.ownedBy(tenant) || (d.global() && !jdbc.query("SELECT 1 FROM docs_collection_grants WHERE "
                + "collection_id = ? AND tenant_id = ?", rs -> 1, d.id(), tenant).isEmpty());
    }

    /** Grants a global collection's capability to a tenant (idempotent); the caller is a platform_admin. */
    public Grant grant(DocCollection d, UUID tenant, String actor) {
        requireGlobal(d);
        jdbc.update("INSERT INTO docs_collection_grants (collection_id, tenant_id, granted_by) VALUES (?, ?, ?) "
                + "ON CONFLICT DO NOTHING", d.id(), tenant, actor);
        return grants(d).stream().filter(g -> g.tenantId().equals(tenant)).findFirst().orElseThrow();
    }

    public void revoke(DocCollection d, UUID tenant) {
        requireGlobal(d);
        if (jdbc.update("DELETE FROM docs_collection_grants WHERE collection_id = ? AND tenant_id = ?", d.id(), tenant) == 0) {
            throw CommonErrors.GRANT_NOT_FOUND.error("tenant " + tenant + " holds no grant of " + d.capability());
        }
    }

    public List<Grant> grants(DocCollection d) {
        return jdbc.query("SELECT tenant_id, granted_by, granted_at FROM docs_collection_grants WHERE collection_id = ? "
                + "ORDER BY granted_at, tenant_id", rs -> new Grant(d.key(), d.capability(),
                rs.getObject("tenant_id", UUID.class), rs.getString("granted_by"),
                rs.getTimestamp("granted_at").toInstant()), d.id());
    }

    private static void requireGlobal(DocCollection d) {
        if (!d.global()) {
            throw DocsErrors.COLLECTION_NOT_GLOBAL.error("collection '" + d.key() + "' is "
                    + "tenant-owned: its owner holds " + d.capability() + " implicitly and it is not shared with other "
                    + "tenants", Map.of("collection", d.key()));
        }
    }
}
