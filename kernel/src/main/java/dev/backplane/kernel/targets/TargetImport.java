package dev.backplane.kernel.targets;

import dev.backplane.kernel.errors.DomainException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The all-or-nothing import of targets: every row is validated first; without {@code update} any existing name
 * aborts the whole import before a write; with it, existing names are sparsely patched and new ones created, all
 * in one transaction under the tenant's lock. A dry run computes the same plan and rolls it back.
 */
final class TargetImport {

    private final TargetStore store;
    private final TargetValidation validation;

    TargetImport(TargetStore store, TargetValidation validation) {
        this.store = store;
        this.validation = validation;
    }

    TargetService.ImportResult run(UUID tenant, List<TargetFields> rows, boolean update, boolean dryRun, String actor) {
        checkShape(rows);
        List<Map<String, Object>> errors = new ArrayList<>();
        return store.inTransaction(c -> {
            TargetStore.lockTenant(c, tenant);
            List<String> created = new ArrayList<>();
            List<String> updated = new ArrayList<>();
            List<TargetStore.Row> toInsert = new ArrayList<>();
            List<TargetStore.Row> toUpdate = new ArrayList<>();
            List<String> existingNames = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                TargetFields f = rows.get(i);
                try {
                    Optional<TargetStore.Row> existing = TargetStore.find(c, tenant, f.name().orElse(""));
                    if (existing.isPresent() && !update) {
                        existingNames.add(existing.get().name());
                        continue;
                    }
                    TargetStore.Row row = validation.validated(tenant, existing.isPresent() ? withoutName(f) : f, existing);
                    (existing.isPresent() ? toUpdate : toInsert).add(row);
                    (existing.isPresent() ? updated : created).add(row.name());
                } catch (DomainException e) {
                    errors.add(rowError(i, f, e));
                }
            }
            if (!existingNames.isEmpty()) {
                throw TargetErrors.TARGET_EXISTS.error("the import would overwrite existing "
                        + "target(s) " + existingNames + "; nothing was written (use --update to patch them)",
                        Map.of("existing", existingNames));
            }
            if (!errors.isEmpty()) {
                throw TargetErrors.INVALID_IMPORT.error(errors.size() + " row(s) are invalid; nothing was written",
                        Map.of("errors", errors));
            }
            write(c, tenant, toInsert, toUpdate, actor);
            if (dryRun) {
                c.rollback();
            }
            return new TargetService.ImportResult(dryRun, created, updated, created.size(), updated.size());
        });
    }

    /** Refuses an empty import, a null row and a name listed twice before anything is read. */
    static void checkShape(List<TargetFields> rows) {
        if (rows.isEmpty()) {
            throw TargetErrors.INVALID_IMPORT.error("the import holds no targets", Map.of());
        }
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i) == null) {
                throw TargetErrors.INVALID_IMPORT.error("target " + i + " of the import is null; nothing "
                        + "was written", Map.of("errors", List.of(Map.of("index", i, "error", "null_target"))));
            }
        }
        List<Map<String, Object>> errors = new ArrayList<>();
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (int i = 0; i < rows.size(); i++) {
            String name = rows.get(i).name().orElse("");
            if (!names.add(name)) {
                errors.add(Map.of("index", i, "name", name, "error", "duplicate_name", "message",
                        "the name appears twice in the import"));
            }
        }
        if (!errors.isEmpty()) {
            throw TargetErrors.INVALID_IMPORT.error("the import is invalid; nothing was written",
                    Map.of("errors", errors));
        }
    }

    private static void write(Connection c, UUID tenant, List<TargetStore.Row> toInsert, List<TargetStore.Row> toUpdate,
                              String actor) throws SQLException {
        for (TargetStore.Row row : toInsert) {
            TargetValidation.requireFree(row, TargetStore.takenBy(c, tenant, row));
            TargetStore.insert(c, tenant, row, actor);
        }
        for (TargetStore.Row row : toUpdate) {
            TargetValidation.requireFree(row, TargetStore.takenBy(c, tenant, row));
            TargetStore.update(c, tenant, row, actor);
        }
    }

    private static Map<String, Object> rowError(int index, TargetFields f, DomainException e) {
        Map<String, Object> err = new LinkedHashMap<>(e.extras());
        err.put("index", index);
        err.put("name", f.name().orElse(""));
        err.put("error", e.code());
        err.put("message", e.getMessage());
        return err;
    }

    /** An existing target's row of the import: its name finds it and is not a change. */
    private static TargetFields withoutName(TargetFields f) {
        return new TargetFields(Optional.empty(), f.aliases(), f.product(), f.host(), f.port(), f.fqdn(), f.secretRef(),
                f.authModel(), f.vpnRequired(), f.notes(), f.preferredImplId(), f.verifyTls(), f.tlsCaPin(),
                f.tlsServerName(), f.extras(), f.version(), f.fingerprint());
    }
}
