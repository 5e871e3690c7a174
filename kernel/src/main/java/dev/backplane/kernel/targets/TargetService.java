package dev.backplane.kernel.targets;

import dev.backplane.kernel.catalog.ConnectorRegistry;
import dev.backplane.kernel.credentials.SecretRefs;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.SharedCache;
import dev.backplane.plugin.api.ConnectorDescriptor;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The target registry of each tenant: create, describe by name or alias, list, sparse patch, delete
 * and all-or-nothing import. Every write is validated whole (required fields, product advertised by
 * a connector, TLS options, SSRF guard, secret_ref scope) before anything is stored.
 */
public final class TargetService {

    public static final int LIST_LIMIT_MAX = 500;
    public static final int LIST_LIMIT_DEFAULT = 100;

    /** A page of targets; {@code next_cursor} is the last name when more may follow. */
    public record Page(List<Target> targets, Optional<String> nextCursor) {
    }

    /** What an import did or, with dry_run, would do. */
    public record ImportResult(boolean dryRun, List<String> created, List<String> updated, int createdCount,
                               int updatedCount) {
    }

    private final TargetStore store;
    private final SharedCache<Optional<TargetStore.Row>> rows;
    private final ConnectorRegistry connectors;
    private final TargetValidation validation;
    private final TargetImport importer;

    public TargetService(Jdbc jdbc, ChangeFeed feed, ConnectorRegistry connectors, SsrfGuard ssrf,
                         SecretRefs.Backend backend) {
        this.rows = new SharedCache<>(feed, "targets", 10_000);
        this.store = new TargetStore(jdbc);
        this.connectors = connectors;
        this.validation = new TargetValidation(connectors, ssrf, backend);
        this.importer = new TargetImport(store, validation);
    }

    public Target create(UUID tenant, TargetFields fields, String actor) {
        TargetStore.Row row = validation.validated(tenant, fields, Optional.empty());
        Target created = store.inTransaction(c -> {
            TargetStore.lockTenant(c, tenant);
            requireFree(c, tenant, row);
            TargetStore.insert(c, tenant, row, actor);
            return view(tenant, TargetStore.find(c, tenant, row.name()).orElseThrow());
        });
        changed(tenant);
        return created;
    }

    /**
     * The name the audit log records a target under: a registered target's name for its alias, and the text as given
     * for a target that is gone (a deleted target is still in the log under its name).
     */
    public String auditName(UUID tenant, String nameOrAlias) {
        try {
            return describe(tenant, nameOrAlias).name();
        } catch (DomainException unknown) {
            return nameOrAlias;
        }
    }

    public Target describe(UUID tenant, String nameOrAlias) {
        return view(tenant, require(tenant, nameOrAlias));
    }

    public Page list(UUID tenant, Optional<String> cursor, int limit, Optional<String> product) {
        if (limit < 1 || limit > LIST_LIMIT_MAX) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + LIST_LIMIT_MAX + ", got " + limit,
                    Map.of("field", "limit"));
        }
        List<TargetStore.Row> rows = store.list(tenant, cursor, limit + 1, product);
        boolean more = rows.size() > limit;
        List<Target> page = rows.stream().limit(limit).map(r -> view(tenant, r)).toList();
        return new Page(page, more ? Optional.of(page.getLast().name()) : Optional.empty());
    }

    public Target patch(UUID tenant, String nameOrAlias, TargetFields fields, String actor) {
        Target patched = store.inTransaction(c -> {
            TargetStore.lockTenant(c, tenant);
            TargetStore.Row existing = TargetStore.find(c, tenant, nameOrAlias).orElseThrow(() -> notFound(nameOrAlias));
            TargetStore.Row row = validation.validated(tenant, fields, Optional.of(existing));
            requireFree(c, tenant, row);
            TargetStore.update(c, tenant, row, actor);
            return view(tenant, TargetStore.find(c, tenant, row.name()).orElseThrow());
        });
        changed(tenant);
        return patched;
    }

    /** Stores a probe's fingerprint; the only writer of that field. */
    void saveFingerprint(UUID tenant, UUID targetId, Map<String, Object> fingerprint) {
        store.saveFingerprint(tenant, targetId, fingerprint);
        changed(tenant);
    }

    public void delete(UUID tenant, String nameOrAlias) {
        TargetStore.Row row = require(tenant, nameOrAlias);
        boolean deleted = store.delete(tenant, row.id());
        changed(tenant);
        if (!deleted) {
            throw notFound(nameOrAlias);
        }
    }

    /**
     * Imports targets in one transaction: every row is validated first; without {@code update} any
     * existing name aborts the whole import before a write; with it, existing names are sparsely
     * patched and new ones created. {@code dryRun} computes the same plan and writes nothing.
     */
    public ImportResult importTargets(UUID tenant, List<TargetFields> rows, boolean update, boolean dryRun, String actor) {
        ImportResult result = importer.run(tenant, rows, update, dryRun, actor);
        changed(tenant);
        return result;
    }

    /**
     * What an import would refuse about {@code f} as a new target of this tenant (the validation of every write:
     * required fields, product advertised, host, SSRF guard, TLS options, secret_ref scope), if anything; whether
     * the name is free is the caller's to check. Nothing is written.
     */
    Optional<DomainException> problemAsNew(UUID tenant, TargetFields f) {
        try {
            validation.validated(tenant, f, Optional.empty());
            return Optional.empty();
        } catch (DomainException e) {
            return Optional.of(e);
        }
    }

    /** Looks a target up by name or alias; cached per tenant, dropped on every target write of the tenant. */
    private TargetStore.Row require(UUID tenant, String nameOrAlias) {
        return rows.get(tenant + "/" + nameOrAlias, () -> store.find(tenant, nameOrAlias))
                .orElseThrow(() -> notFound(nameOrAlias));
    }

    private void changed(UUID tenant) {
        rows.changed(tenant.toString());
    }

    private static DomainException notFound(String nameOrAlias) {
        return TargetErrors.TARGET_NOT_FOUND.error("no target named '" + nameOrAlias + "' (name or alias) "
                + "in this tenant");
    }

    private static void requireFree(Connection c, UUID tenant, TargetStore.Row row) throws SQLException {
        TargetValidation.requireFree(row, TargetStore.takenBy(c, tenant, row));
    }

    private Target view(UUID tenant, TargetStore.Row r) {
        int defaultPort = connectors.all(tenant).stream().flatMap(c -> c.descriptor().products().stream())
                .filter(p -> p.token().equals(r.product())).mapToInt(ConnectorDescriptor.Product::defaultPort)
                .findFirst().orElse(443);
        return new Target(r.id(), r.name(), r.aliases(), r.product(), r.host(), r.port() == null ? defaultPort : r.port(),
                r.port() == null, Optional.ofNullable(r.fqdn()), r.secretRef(), r.authModel(), r.vpnRequired(),
                Optional.ofNullable(r.notes()), Optional.ofNullable(r.preferredImplId()), r.verifyTls(),
                Optional.ofNullable(r.tlsCaPin()), Optional.ofNullable(r.tlsServerName()), r.extras(),
                Optional.ofNullable(r.version()), Optional.ofNullable(r.fingerprint()), r.createdAt(), r.updatedAt());
    }
}
