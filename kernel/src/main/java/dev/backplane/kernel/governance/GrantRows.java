package dev.backplane.kernel.governance;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import java.util.UUID;
import java.util.function.Function;

/**
 * What agent grants and service grants answer alike: one grant of the tenant by id, and revoking it
 * (the row stays, marked revoked, and is answered again). {@code table} is one of the grant tables,
 * never caller text.
 */
record GrantRows<T>(Jdbc jdbc, String table, Jdbc.RowMapper<T> row, Function<UUID, DomainException> missing) {

    T show(UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT * FROM " + table + " WHERE tenant_id = ? AND id = ?", row, tenant, id)
                .orElseThrow(() -> missing.apply(id));
    }

    T revoke(UUID tenant, UUID id) {
        show(tenant, id);
        jdbc.update("UPDATE " + table + " SET revoked = true WHERE id = ?", id);
        return show(tenant, id);
    }
}
