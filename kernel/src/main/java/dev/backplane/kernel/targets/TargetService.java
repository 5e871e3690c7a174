package dev.backplane.kernel.targets;

import dev.backplane.kernel.catalog.ConnectorRegistry;
import dev.backplane.kernel.credentials.SecretRefs;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.SharedCache;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.plugin.api.ConnectorDescriptor;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The target registry of each tenant: create, describe by name or alias, list, sparse patch, delete
 * and all-or-nothing import. Every write is validated whole (required fields, product advertised by
 * a connector, TLS options, SSRF guard, secret_ref scope) before anything is stored.
 */
public final class TargetService {

    public static final int LIST_LIMIT_MAX = 500;
    public static final int LIST_LIMIT_DEFAULT = 100;
    static final String DEFAULT_AUTH_MODEL = "shared_service_account";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,62})?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,62})?)*\\.?"
            + "|\\[?[0-9A-Fa-f:.]+(%[A-Za-z0-9]+)?]?");
    private static final Pattern AUTH_MODEL = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    /** A page of targets; {@code next_cursor} is the last name when more may follow. */
    public record Page(List<Target> targets, Optional<String> nextCursor) {
    }

    /** What an import did or, with dry_run, would do. */
    public record ImportResult(boolean dryRun, List<String> created, List<String> updated, int createdCount,
                               int updatedCount) {
    }

    private final TargetStore store;
    private final Jdbc jdbc;
    private final SharedCache<Optional<TargetStore.Row>> rows;
    private final ConnectorRegistry connectors;
    private final SsrfGuard ssrf;
    private final SecretRefs.Backend backend;

    public TargetService(Jdbc jdbc, ChangeFeed feed, ConnectorRegistry connectors, SsrfGuard ssrf,
                         SecretRefs.Backend backend) {
        this.jdbc = jdbc;
        this.rows = new SharedCache<>(feed, "targets", 10_000);
        this.store = new TargetStore(jdbc);
        this.connectors = connectors;
        this.ssrf = ssrf;
        this.backend = backend;
    }

    public Target create(UUID tenant, TargetFields fields, String actor) {
        TargetStore.Row row = validated(tenant, fields, Optional.empty());
        Target created = jdbc.inTransaction(c -> {
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
        Target patched = jdbc.inTransaction(c -> {
            TargetStore.lockTenant(c, tenant);
            TargetStore.Row existing = TargetStore.find(c, tenant, nameOrAlias).orElseThrow(() -> notFound(nameOrAlias));
            TargetStore.Row row = validated(tenant, fields, Optional.of(existing));
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
        if (rows.isEmpty()) {
            throw TargetErrors.INVALID_IMPORT.error("the import holds no targets", Map.of());
        }
        List<Map<String, Object>> errors = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i) == null) {
                throw TargetErrors.INVALID_IMPORT.error("target " + i + " of the import is null; nothing "
                        + "was written", Map.of("errors", List.of(Map.of("index", i, "error", "null_target"))));
            }
        }
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
        ImportResult result = jdbc.inTransaction(c -> {
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
                    TargetStore.Row row = validated(tenant, existing.isPresent() ? withoutName(f) : f, existing);
                    (existing.isPresent() ? toUpdate : toInsert).add(row);
                    (existing.isPresent() ? updated : created).add(row.name());
                } catch (DomainException e) {
                    Map<String, Object> err = new LinkedHashMap<>(e.extras());
                    err.put("index", i);
                    err.put("name", f.name().orElse(""));
                    err.put("error", e.code());
                    err.put("message", e.getMessage());
                    errors.add(err);
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
            for (TargetStore.Row row : toInsert) {
                requireFree(c, tenant, row);
                TargetStore.insert(c, tenant, row, actor);
            }
            for (TargetStore.Row row : toUpdate) {
                requireFree(c, tenant, row);
                TargetStore.update(c, tenant, row, actor);
            }
            if (dryRun) {
                c.rollback();
            }
            return new ImportResult(dryRun, created, updated, created.size(), updated.size());
        });
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
            validated(tenant, f, Optional.empty());
            return Optional.empty();
        } catch (DomainException e) {
            return Optional.of(e);
        }
    }

    private static TargetFields withoutName(TargetFields f) {
        return new TargetFields(Optional.empty(), f.aliases(), f.product(), f.host(), f.port(), f.fqdn(), f.secretRef(),
                f.authModel(), f.vpnRequired(), f.notes(), f.preferredImplId(), f.verifyTls(), f.tlsCaPin(),
                f.tlsServerName(), f.extras(), f.version(), f.fingerprint());
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
        List<String> wanted = new ArrayList<>();
        wanted.add(row.name());
        wanted.addAll(row.aliases());
        List<String> taken = TargetStore.taken(c, tenant, wanted, row.id());
        if (!taken.isEmpty()) {
            throw new DomainException(ErrorKind.CONFLICT, taken.contains(row.name()) ? "target_exists" : "alias_in_use",
                    "name or alias already used by another target in this tenant: " + taken, Map.of("taken", taken));
        }
    }

    /** Merges {@code f} over {@code existing} (or nothing) and validates the whole result. */
    private TargetStore.Row validated(UUID tenant, TargetFields f, Optional<TargetStore.Row> existing) {
        if (f.fingerprint().isPresent()) {
            throw TargetErrors.FINGERPRINT_IS_SERVER_MANAGED.error("fingerprint is written only by "
                    + "svc targets probe; drop it from the request", Map.of("field", "fingerprint"));
        }
        TargetStore.Row e = existing.orElse(null);
        String name = f.name().or(() -> Optional.ofNullable(e).map(TargetStore.Row::name))
                .orElseThrow(() -> missing("name"));
        if (e != null && f.name().isPresent() && !f.name().get().equals(e.name())) {
            throw TargetErrors.INVALID_TARGET.error("a target cannot be renamed; add an alias instead",
                    Map.of("field", "name"));
        }
        String product = f.product().or(() -> Optional.ofNullable(e).map(TargetStore.Row::product))
                .orElseThrow(() -> missing("product"));
        String host = f.host().or(() -> Optional.ofNullable(e).map(TargetStore.Row::host))
                .orElseThrow(() -> missing("host"));
        check(NAME.matcher(name).matches(), "invalid_target_name", "name", "name must be 1-128 letters, digits, "
                + "'.', '_' or '-', starting with a letter or digit: '" + name + "'");
        List<String> aliases = f.aliases().or(() -> Optional.ofNullable(e).map(TargetStore.Row::aliases)).orElse(List.of());
        TreeSet<String> distinct = new TreeSet<>();
        for (String a : aliases) {
            check(a != null && NAME.matcher(a).matches(), "invalid_alias", "aliases", "alias '" + a + "' is not a valid name");
            check(!a.equals(name), "invalid_alias", "aliases", "alias '" + a + "' equals the target's name");
            check(distinct.add(a), "invalid_alias", "aliases", "alias '" + a + "' is listed twice");
        }
        List<LoadedConnector> serving = connectors.all(tenant).stream()
                .filter(c -> c.descriptor().products().stream().anyMatch(p -> p.token().equals(product))).toList();
        if (serving.isEmpty()) {
            TreeSet<String> valid = new TreeSet<>();
            connectors.all(tenant).forEach(c -> c.descriptor().products().forEach(p -> valid.add(p.token())));
            throw TargetErrors.UNKNOWN_PRODUCT.error("product '" + product + "' is not advertised by any "
                    + "registered connector; use the exact product token", Map.of("valid_products", List.copyOf(valid),
                    "field", "product"));
        }
        check(HOST.matcher(host).matches(), "invalid_host", "host", "host '" + host + "' is not a host name or IP address");
        if (e == null || !host.equals(e.host())) {
            try {
                ssrf.check(host);
            } catch (SsrfGuard.Refused refused) {
                throw CommonErrors.SSRF_REFUSED.error(refused.getMessage(), Map.of("field", "host",
                        "allowlist_setting", "SVC_TARGET_SSRF_ALLOWLIST"));
            }
        }
        Integer port = f.port().or(() -> Optional.ofNullable(e).map(TargetStore.Row::port)).orElse(null);
        check(port == null || (port >= 1 && port <= 65535), "invalid_port", "port", "port must be 1..65535, got " + port);
        String authModel = f.authModel().or(() -> Optional.ofNullable(e).map(TargetStore.Row::authModel))
                .orElse(DEFAULT_AUTH_MODEL);
        check(AUTH_MODEL.matcher(authModel).matches(), "invalid_auth_model", "auth_model",
                "auth_model must be lower-case letters, digits and '_': '" + authModel + "'");
        String preferred = f.preferredImplId().or(() -> Optional.ofNullable(e).map(TargetStore.Row::preferredImplId))
                .orElse(null);
        if (preferred != null && serving.stream().noneMatch(c -> c.descriptor().implId().equals(preferred))) {
            throw TargetErrors.UNKNOWN_IMPL.error("no implementation '" + preferred + "' serves product '"
                    + product + "'", Map.of("field", "preferred_impl_id", "valid_impl_ids",
                    serving.stream().map(c -> c.descriptor().implId()).distinct().sorted().toList()));
        }
        boolean verifyTls = f.verifyTls().or(() -> Optional.ofNullable(e).map(TargetStore.Row::verifyTls)).orElse(true);
        String pin = f.tlsCaPin().or(() -> Optional.ofNullable(e).map(TargetStore.Row::tlsCaPin)).orElse(null);
        if (!verifyTls && pin != null) {
            throw TargetErrors.TLS_OPTIONS_CONFLICT.error("verify_tls=false and tls_ca_pin are mutually "
                    + "exclusive: pin a CA to verify against it, or turn verification off", Map.of("field", "tls_ca_pin"));
        }
        if (pin != null) {
            checkPem(pin);
        }
        String serverName = f.tlsServerName().or(() -> Optional.ofNullable(e).map(TargetStore.Row::tlsServerName))
                .orElse(null);
        check(serverName == null || HOST.matcher(serverName).matches(), "invalid_tls_server_name", "tls_server_name",
                "tls_server_name must be a host name");
        Map<String, Object> extras = f.extras().or(() -> Optional.ofNullable(e).map(TargetStore.Row::extras))
                .orElse(Map.of());
        // the one extras key the kernel's own connectors read: a typo would silently fall back to https
        Object scheme = extras.get("scheme");
        check(scheme == null || "http".equals(scheme) || "https".equals(scheme), "invalid_extras", "extras.scheme",
                "extras.scheme must be http or https, got '" + scheme + "'");
        Optional<String> suppliedRef = f.secretRef().or(() -> Optional.ofNullable(e).map(TargetStore.Row::secretRef));
        String secretRef = SecretRefs.forRegistration(backend, tenant, name, suppliedRef);
        return new TargetStore.Row(e == null ? UUID.randomUUID() : e.id(), name, List.copyOf(distinct), product, host,
                port, f.fqdn().or(() -> Optional.ofNullable(e).map(TargetStore.Row::fqdn)).orElse(null), secretRef,
                authModel, f.vpnRequired().or(() -> Optional.ofNullable(e).map(TargetStore.Row::vpnRequired)).orElse(false),
                f.notes().or(() -> Optional.ofNullable(e).map(TargetStore.Row::notes)).orElse(null), preferred, verifyTls,
                pin, serverName, extras,
                f.version().or(() -> Optional.ofNullable(e).map(TargetStore.Row::version)).orElse(null),
                e == null ? null : e.fingerprint(), null, null);
    }

    private static void checkPem(String pem) {
        try {
            var certs = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
            check(!certs.isEmpty(), "invalid_tls_ca_pin", "tls_ca_pin", "tls_ca_pin holds no PEM certificate");
        } catch (CertificateException e) {
            throw TargetErrors.INVALID_TLS_CA_PIN.error("tls_ca_pin is not a PEM CA bundle: " + e.getMessage(),
                    Map.of("field", "tls_ca_pin"));
        }
    }

    private static DomainException missing(String field) {
        return TargetErrors.MISSING_FIELD.error(field + " is required", Map.of("field", field));
    }

    private static void check(boolean ok, String code, String field, String message) {
        if (!ok) {
            throw DomainException.unprocessable(code, message, Map.of("field", field));
        }
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
