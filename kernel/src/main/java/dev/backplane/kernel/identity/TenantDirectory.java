package dev.backplane.kernel.identity;

import java.util.Optional;
import java.util.UUID;

/**
 * What authentication needs to know of tenants: record a caller's home tenant and display name on
 * first sight, and whether a tenant a platform admin names exists. Implemented by {@code tenancy.TenantService}; an
 * interface here so identity sits below tenancy in the package graph.
 */
public interface TenantDirectory {

    void ensureKnown(Optional<UUID> tenantId);

    /** Remembers the token subject's display name (preferred_username) so lists can show it beside the sub. */
    void rememberName(String sub, Optional<String> username);

    boolean exists(UUID tenantId);
}
