package dev.backplane.kernel.targets;

import dev.backplane.kernel.catalog.ConnectorRegistry;
import dev.backplane.kernel.credentials.SecretRefs;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.plugins.LoadedConnector;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The validation of every target write: a client's fields merged over the stored target (or nothing) and checked
 * whole — required fields, name and aliases, product advertised by a connector, host, SSRF guard, port, auth model,
 * preferred implementation, TLS options, extras.scheme, secret_ref scope — before anything is stored.
 */
final class TargetValidation {

    static final String DEFAULT_AUTH_MODEL = "shared_service_account";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,62})?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,62})?)*\\.?"
            + "|\\[?[0-9A-Fa-f:.]+(%[A-Za-z0-9]+)?]?");
    private static final Pattern AUTH_MODEL = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    private final ConnectorRegistry connectors;
    private final SsrfGuard ssrf;
    private final SecretRefs.Backend backend;

    TargetValidation(ConnectorRegistry connectors, SsrfGuard ssrf, SecretRefs.Backend backend) {
        this.connectors = connectors;
        this.ssrf = ssrf;
        this.backend = backend;
    }

    /** Merges {@code f} over {@code existing} (or nothing) and validates the whole result. */
    TargetStore.Row validated(UUID tenant, TargetFields f, Optional<TargetStore.Row> existing) {
        if (f.fingerprint().isPresent()) {
            throw TargetErrors.FINGERPRINT_IS_SERVER_MANAGED.error("fingerprint is written only by "
                    + "svc targets probe; drop it from the request", Map.of("field", "fingerprint"));
        }
        TargetStore.Row e = existing.orElse(null);
        String name = f.name().or(() -> stored(e, TargetStore.Row::name)).orElseThrow(() -> missing("name"));
        if (e != null && f.name().isPresent() && !f.name().get().equals(e.name())) {
            throw TargetErrors.INVALID_TARGET.error("a target cannot be renamed; add an alias instead",
                    Map.of("field", "name"));
        }
        String product = f.product().or(() -> stored(e, TargetStore.Row::product)).orElseThrow(() -> missing("product"));
        String host = f.host().or(() -> stored(e, TargetStore.Row::host)).orElseThrow(() -> missing("host"));
        check(NAME.matcher(name).matches(), "invalid_target_name", "name", "name must be 1-128 letters, digits, "
                + "'.', '_' or '-', starting with a letter or digit: '" + name + "'");
        List<String> aliases = aliases(name, f.aliases().or(() -> stored(e, TargetStore.Row::aliases)).orElse(List.of()));
        List<LoadedConnector> serving = serving(tenant, product);
        checkHost(host);
        if (e == null || !host.equals(e.host())) {
            try {
                ssrf.check(host);
            } catch (SsrfGuard.Refused refused) {
                throw CommonErrors.SSRF_REFUSED.error(refused.getMessage(), Map.of("field", "host",
                        "allowlist_setting", "SVC_TARGET_SSRF_ALLOWLIST"));
            }
        }
        Integer port = f.port().or(() -> stored(e, TargetStore.Row::port)).orElse(null);
        checkPort(port);
        String authModel = f.authModel().or(() -> stored(e, TargetStore.Row::authModel)).orElse(DEFAULT_AUTH_MODEL);
        checkAuthModel(authModel);
        String preferred = f.preferredImplId().or(() -> stored(e, TargetStore.Row::preferredImplId)).orElse(null);
        if (preferred != null && serving.stream().noneMatch(c -> c.descriptor().implId().equals(preferred))) {
            throw TargetErrors.UNKNOWN_IMPL.error("no implementation '" + preferred + "' serves product '"
                    + product + "'", Map.of("field", "preferred_impl_id", "valid_impl_ids",
                    serving.stream().map(c -> c.descriptor().implId()).distinct().sorted().toList()));
        }
        boolean verifyTls = f.verifyTls().or(() -> stored(e, TargetStore.Row::verifyTls)).orElse(true);
        String pin = f.tlsCaPin().or(() -> stored(e, TargetStore.Row::tlsCaPin)).orElse(null);
        checkTls(verifyTls, pin);
        String serverName = f.tlsServerName().or(() -> stored(e, TargetStore.Row::tlsServerName)).orElse(null);
        check(serverName == null || HOST.matcher(serverName).matches(), "invalid_tls_server_name", "tls_server_name",
                "tls_server_name must be a host name");
        Map<String, Object> extras = f.extras().or(() -> stored(e, TargetStore.Row::extras)).orElse(Map.of());
        checkExtras(extras);
        String secretRef = SecretRefs.forRegistration(backend, tenant, name, f.secretRef().or(() -> stored(e,
                TargetStore.Row::secretRef)));
        return new TargetStore.Row(e == null ? UUID.randomUUID() : e.id(), name, aliases, product, host, port,
                f.fqdn().or(() -> stored(e, TargetStore.Row::fqdn)).orElse(null), secretRef, authModel,
                f.vpnRequired().or(() -> stored(e, TargetStore.Row::vpnRequired)).orElse(false),
                f.notes().or(() -> stored(e, TargetStore.Row::notes)).orElse(null), preferred, verifyTls, pin, serverName,
                extras, f.version().or(() -> stored(e, TargetStore.Row::version)).orElse(null),
                e == null ? null : e.fingerprint(), null, null);
    }

    /** The connectors advertising {@code product}; {@code unknown_product} with the valid tokens when none does. */
    private List<LoadedConnector> serving(UUID tenant, String product) {
        List<LoadedConnector> serving = connectors.all(tenant).stream()
                .filter(c -> c.descriptor().products().stream().anyMatch(p -> p.token().equals(product))).toList();
        if (serving.isEmpty()) {
            TreeSet<String> valid = new TreeSet<>();
            connectors.all(tenant).forEach(c -> c.descriptor().products().forEach(p -> valid.add(p.token())));
            throw TargetErrors.UNKNOWN_PRODUCT.error("product '" + product + "' is not advertised by any "
                    + "registered connector; use the exact product token", Map.of("valid_products", List.copyOf(valid),
                    "field", "product"));
        }
        return serving;
    }

    /** The aliases, each a valid name other than the target's, listed once, sorted. */
    static List<String> aliases(String name, List<String> aliases) {
        TreeSet<String> distinct = new TreeSet<>();
        for (String a : aliases) {
            check(a != null && NAME.matcher(a).matches(), "invalid_alias", "aliases", "alias '" + a + "' is not a valid name");
            check(!a.equals(name), "invalid_alias", "aliases", "alias '" + a + "' equals the target's name");
            check(distinct.add(a), "invalid_alias", "aliases", "alias '" + a + "' is listed twice");
        }
        return List.copyOf(distinct);
    }

    static void checkHost(String host) {
        check(HOST.matcher(host).matches(), "invalid_host", "host", "host '" + host + "' is not a host name or IP address");
    }

    /** A port is 1..65535; none (null) means the product's default. */
    static void checkPort(Integer port) {
        check(port == null || (port >= 1 && port <= 65535), "invalid_port", "port", "port must be 1..65535, got " + port);
    }

    static void checkAuthModel(String authModel) {
        check(AUTH_MODEL.matcher(authModel).matches(), "invalid_auth_model", "auth_model",
                "auth_model must be lower-case letters, digits and '_': '" + authModel + "'");
    }

    /** Verification off and a pinned CA exclude each other; a pin must hold a PEM certificate. */
    static void checkTls(boolean verifyTls, String pin) {
        if (!verifyTls && pin != null) {
            throw TargetErrors.TLS_OPTIONS_CONFLICT.error("verify_tls=false and tls_ca_pin are mutually "
                    + "exclusive: pin a CA to verify against it, or turn verification off", Map.of("field", "tls_ca_pin"));
        }
        if (pin != null) {
            checkPem(pin);
        }
    }

    /** The one extras key the kernel's own connectors read: a typo would silently fall back to https. */
    static void checkExtras(Map<String, Object> extras) {
        Object scheme = extras.get("scheme");
        check(scheme == null || "http".equals(scheme) || "https".equals(scheme), "invalid_extras", "extras.scheme",
                "extras.scheme must be http or https, got '" + scheme + "'");
    }

    /** {@code target_exists} or {@code alias_in_use} when another target already uses one of the row's names. */
    static void requireFree(TargetStore.Row row, List<String> taken) {
        if (!taken.isEmpty()) {
            throw new DomainException(ErrorKind.CONFLICT, taken.contains(row.name()) ? "target_exists" : "alias_in_use",
                    "name or alias already used by another target in this tenant: " + taken, Map.of("taken", taken));
        }
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

    private static <T> Optional<T> stored(TargetStore.Row e, Function<TargetStore.Row, T> field) {
        return Optional.ofNullable(e).map(field);
    }

    private static DomainException missing(String field) {
        return TargetErrors.MISSING_FIELD.error(field + " is required", Map.of("field", field));
    }

    private static void check(boolean ok, String code, String field, String message) {
        if (!ok) {
            throw DomainException.unprocessable(code, message, Map.of("field", field));
        }
    }
}
