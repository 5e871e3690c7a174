package dev.backplane.kernel.identity;

import java.util.Optional;
import java.util.UUID;

/**
 * What authentication needs to know of tenants: record a caller's home tenant on first sight, and
 * whether a tenant a platform admin names exists. Implemented by {@code tenancy.TenantService}; an
 * interface here so identity sits below tenancy in the package graph.
 */
public interface TenantDirectory {

    void ensureKnown(Optional<UUID> tenantId);

    boolean exists(UUID tenantId);
}
