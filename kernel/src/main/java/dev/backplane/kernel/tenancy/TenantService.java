package dev.backplane.kernel.tenancy;

import dev.backplane.kernel.identity.TenantDirectory;
import dev.backplane.kernel.persistence.Jdbc;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tenants this backplane knows. A tenant is minted by the identity provider (the
 * {@code tenant_id} claim); the kernel records it the first time one of its tokens is seen, so that
 * a platform_admin's {@code --tenant} can be checked against real tenants.
 */
public final class TenantService implements TenantDirectory {

    private final TenantStore store;
    private final Set<UUID> known = ConcurrentHashMap.newKeySet();
    /** sub → the username last written, so a request writes only when a name is new or changed. */
    private final Map<String, String> names = new ConcurrentHashMap<>();

    public TenantService(Jdbc jdbc) {
        this.store = new TenantStore(jdbc);
    }

    @Override
    public void ensureKnown(Optional<UUID> tenantId) {
        tenantId.ifPresent(id -> {
            if (!known.contains(id)) {
                store.insertIfAbsent(id);
                known.add(id);
            }
        });
    }

    @Override
    public void rememberName(String sub, Optional<String> username) {
        username.filter(u -> !u.equals(names.get(sub))).ifPresent(u -> {
            store.rememberName(sub, u);
            names.put(sub, u);
        });
    }

    @Override
    public boolean exists(UUID tenantId) {
        if (known.contains(tenantId)) {
            return true;
        }
        boolean found = store.exists(tenantId);
        if (found) {
            known.add(tenantId);
        }
        return found;
    }

    public FlightRecorderPolicy flightRecorderPolicy(UUID tenantId) {
        return store.flightRecorderPolicy(tenantId).orElse(FlightRecorderPolicy.DEFAULT);
    }

    /** Applies a sparse change and returns the resulting policy. */
    public FlightRecorderPolicy updateFlightRecorderPolicy(UUID tenantId, FlightRecorderPolicy.Change change,
                                                           String actorSub) {
        ensureKnown(Optional.of(tenantId));
        return store.updateFlightRecorderPolicy(tenantId, change, actorSub);
    }

    /** The acting tenant as {@code GET /api/v1/tenants/current} shows it (its display name, if one is set). */
    public TenantView view(UUID tenantId) {
        return store.view(tenantId).orElse(new TenantView(tenantId, Optional.empty(), Optional.empty(),
                Optional.empty()));
    }

    /** The tenant's display name, if its tenant_admin set one. */
    public Optional<String> displayName(UUID tenantId) {
        return view(tenantId).displayName();
    }

    /**
     * Sets the tenant's display name ({@code name} empty clears it). A name is 1 to {@value TenantView#MAX_NAME}
     * characters without control characters, trimmed; anything else is {@code 422 invalid_request} naming the field.
     */
    public TenantView setDisplayName(UUID tenantId, Optional<String> name, String actorSub) {
        Optional<String> checked = name.map(TenantView::checkedName);
        ensureKnown(Optional.of(tenantId));
        store.setDisplayName(tenantId, checked, actorSub);
        return view(tenantId);
    }

    /** The tenant's mail-recipient policy; {@link MailRecipientPolicy#UNSET} (mail denied) when none is stored. */
    public MailRecipientPolicy mailRecipientPolicy(UUID tenantId) {
        return store.mailRecipientPolicy(tenantId).orElse(MailRecipientPolicy.UNSET);
    }

    /**
     * Replaces the allowlist with {@code allowlist} as sent (comma-separated; {@code ""} denies all mail).
     * Throws {@code 422 invalid_policy} naming the first entry that is neither an address nor a domain.
     */
    public MailRecipientPolicy setMailRecipientPolicy(UUID tenantId, String allowlist, String actorSub) {
        List<String> entries = MailRecipientPolicy.parse(allowlist);
        ensureKnown(Optional.of(tenantId));
        return store.setMailRecipientPolicy(tenantId, entries, actorSub);
    }

    /** Removes the policy (back to unset: mail denied until one is set). */
    public MailRecipientPolicy clearMailRecipientPolicy(UUID tenantId) {
        store.clearMailRecipientPolicy(tenantId);
        return MailRecipientPolicy.UNSET;
    }
}
