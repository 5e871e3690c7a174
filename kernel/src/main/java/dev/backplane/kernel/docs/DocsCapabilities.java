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

    private final DocCollectionStore store;

    DocsCapabilities(Jdbc jdbc) {
        this.store = new DocCollectionStore(jdbc);
    }

    public boolean holds(UUID tenant, DocCollection d) {
        return d.ownedBy(tenant) || (d.global() && store.granted(d.id(), tenant));
    }

    /** Grants a global collection's capability to a tenant (idempotent); the caller is a platform_admin. */
    public Grant grant(DocCollection d, UUID tenant, String actor) {
        requireGlobal(d);
        store.grant(d.id(), tenant, actor);
        return grants(d).stream().filter(g -> g.tenantId().equals(tenant)).findFirst().orElseThrow();
    }

    public void revoke(DocCollection d, UUID tenant) {
        requireGlobal(d);
        if (!store.revoke(d.id(), tenant)) {
            throw CommonErrors.GRANT_NOT_FOUND.error("tenant " + tenant + " holds no grant of " + d.capability());
        }
    }

    public List<Grant> grants(DocCollection d) {
        return store.grants(d);
    }

    private static void requireGlobal(DocCollection d) {
        if (!d.global()) {
            throw DocsErrors.COLLECTION_NOT_GLOBAL.error("collection '" + d.key() + "' is "
                    + "tenant-owned: its owner holds " + d.capability() + " implicitly and it is not shared with other "
                    + "tenants", Map.of("collection", d.key()));
        }
    }
}
