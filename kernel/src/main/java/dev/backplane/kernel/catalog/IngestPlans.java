package dev.backplane.kernel.catalog;

import dev.backplane.ingest.SpecFiles;
import dev.backplane.ingest.SpecIngestException;
import dev.backplane.ingest.SpecSource;
import dev.backplane.kernel.catalog.SpecIngestService.IngestRequest;
import dev.backplane.kernel.catalog.SpecIngestService.SpecFile;
import dev.backplane.kernel.catalog.SpecIngestService.SpecUpload;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.OperationGroup;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The ingest request's rules: who may write which scope, catalog or manual mode, the names' shapes, the
 * spec size cap and the port range; a request that passes becomes a {@link Plan} ready to run.
 */
final class IngestPlans {

    /** A validated request, ready to run. */
    record Plan(String connectorId, String implId, String version, String product, int defaultPort,
                List<SpecSource> sources, long bytes, AuthScheme auth, List<String> compatible,
                Optional<UUID> owner, boolean dryRun, String source, Map<String, OperationGroup> curatedGroups,
                List<String> credentialReads, List<String> notCredentialReads, List<ClassificationRules.Rule> rules,
                Optional<String> basePath) {
    }

    private static final Pattern IMPL = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
    private static final Pattern VERSION = Pattern.compile("[0-9A-Za-z][0-9A-Za-z.]*");
    private static final Pattern PRODUCT = Pattern.compile("[a-z][a-z0-9-]*");
    /** A base path: "/" or segments of URL path characters; no template, query, fragment or dot segment. */
    private static final Pattern BASE_PATH = Pattern.compile("/|(/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+/?");

    private final ConnectorRegistry registry;
    private final long maxSpecBytes;

    /** @param registry the catalog index's owner, used in catalog mode only */
    IngestPlans(ConnectorRegistry registry, long maxSpecBytes) {
        this.registry = registry;
        this.maxSpecBytes = maxSpecBytes;
    }

    Plan plan(Caller caller, IngestRequest req) {
        Optional<UUID> owner = owner(caller, req.tenantId());
        List<ClassificationRules.Rule> rules = ClassificationRules.parse(req.rules());
        Optional<String> basePath = req.basePath().map(IngestPlans::basePath);
        if (!req.authSecretFields().isEmpty() && req.authScheme().isEmpty()) {
            throw invalid("auth_secret_field_without_scheme", "--auth-secret-field needs --auth-scheme",
                    "auth_secret_fields");
        }
        req.authScheme().ifPresent(s -> {
            if (!AuthScheme.SCHEMES.contains(s)) {
                throw CatalogErrors.INVALID_AUTH_SCHEME.error("unknown auth scheme '" + s + "'; one of "
                        + new TreeSet<>(AuthScheme.SCHEMES), Map.of("field", "auth_scheme",
                        "valid_auth_schemes", new TreeSet<>(AuthScheme.SCHEMES)));
            }
        });
        boolean manual = req.product().isPresent() || req.version().isPresent() || req.impl().isPresent()
                || !req.specs().isEmpty();
        if (req.catalog().isPresent() == manual) {
            throw invalid("invalid_ingest_mode", "give either catalog (<product>/<version>, catalog mode) or product, "
                    + "version and at least one spec (manual mode), not both and not neither", "catalog");
        }
        if (req.catalog().isPresent()) {
            return catalogPlan(req, owner, rules, basePath);
        }
        String product = req.product().orElseThrow(() -> invalid("invalid_request", "product is required in manual "
                + "mode", "product"));
        String version = req.version().orElseThrow(() -> invalid("invalid_request", "version is required in manual "
                + "mode", "version"));
        String impl = req.impl().orElse(product);
        check(PRODUCT, product, "product", "lower-case letters, digits and '-'");
        check(VERSION, version, "version", "letters, digits and dots (for example 23.x or 1.15)");
        check(IMPL, impl, "impl", "lower-case words joined by '-'");
        if (req.specs().isEmpty()) {
            throw invalid("invalid_request", "at least one spec is required in manual mode", "specs");
        }
        long bytes = 0;
        List<SpecSource> sources = new ArrayList<>();
        for (SpecUpload u : req.specs()) {
            SpecSource source = source(u);
            long size = source.content() != null ? source.content().getBytes(StandardCharsets.UTF_8).length
                    : source.files().values().stream().mapToLong(t -> t.getBytes(StandardCharsets.UTF_8).length).sum();
            if (size > maxSpecBytes) {
                throw CatalogErrors.SPEC_TOO_LARGE.error("spec " + source.location() + " is " + size + " bytes; the "
                        + "cap is " + maxSpecBytes + " (setting catalog.ingest-max-spec-bytes)", Map.of());
            }
            bytes += size;
            sources.add(source);
        }
        String scheme = req.authScheme().orElse("none");
        AuthScheme auth = auth(scheme, req.authSecretFields(), req.authSettings());
        int port = req.defaultPort().orElse(443);
        if (port < 1 || port > 65535) {
            throw invalid("invalid_request", "default_port must be 1..65535", "default_port");
        }
        return new Plan(impl + "-" + version, impl, version, product, port, sources, bytes, auth,
                req.specInfoVersionsCompatible(), owner, req.dryRun(), "manual", Map.of(), List.of(), List.of(), rules,
                basePath);
    }

    /**
     * One uploaded spec as the ingest reads it: one document, or a multi-file spec's files (listed, or in an archive,
     * read here within the byte cap). Exactly one of content, files and archive_base64.
     */
    private SpecSource source(SpecUpload u) {
        if (u == null) {
            throw invalid("invalid_request", "every spec needs its content", "specs");
        }
        String name = u.name() == null || u.name().isBlank() ? "spec" : u.name();
        int given = (u.content() != null ? 1 : 0) + (u.files() != null ? 1 : 0) + (u.archiveBase64() != null ? 1 : 0);
        if (given != 1) {
            throw invalid("invalid_request", "spec " + name + " needs exactly one of content (one document), files "
                    + "(a multi-file spec's files) and archive_base64 (a zip, tar or tar.gz of them)", "specs");
        }
        if (u.content() != null) {
            if (u.content().isBlank()) {
                throw invalid("invalid_request", "every spec needs its content", "specs");
            }
            return SpecSource.text(name, u.content());
        }
        Map<String, String> files = new TreeMap<>();
        if (u.files() != null) {
            if (u.files().isEmpty() || u.files().size() > SpecFiles.MAX_FILES) {
                throw invalid("invalid_request", "spec " + name + " needs 1 to " + SpecFiles.MAX_FILES
                        + " files", "specs");
            }
            for (SpecFile f : u.files()) {
                if (f == null || f.path() == null || f.path().isBlank() || f.content() == null) {
                    throw invalid("invalid_request", "every file of spec " + name + " needs a path and its content",
                            "specs");
                }
                if (files.put(f.path(), f.content()) != null) {
                    throw invalid("invalid_request", "spec " + name + " has the file " + f.path() + " twice", "specs");
                }
            }
        } else {
            byte[] archive;
            try {
                archive = Base64.getMimeDecoder().decode(u.archiveBase64());
            } catch (IllegalArgumentException e) {
                throw invalid("invalid_request", "archive_base64 of spec " + name + " is not base64", "specs");
            }
            try {
                files.putAll(SpecFiles.fromArchive(name, archive, maxSpecBytes));
            } catch (SpecIngestException e) {
                throw DomainException.unprocessable(e.reason().wireName(), e.getMessage(), Map.of());
            }
        }
        return SpecSource.files(name, files, u.root());
    }

    private Plan catalogPlan(IngestRequest req, Optional<UUID> owner, List<ClassificationRules.Rule> rules,
                             Optional<String> basePath) {
        String key = req.catalog().orElseThrow();
        CatalogIndex.Entry e = registry.index().find(key).orElseThrow(() -> CatalogErrors.UNKNOWN_CATALOG_ENTRY.error("the catalog index has no '" + key + "'").withExtras("valid_catalog_entries",
                registry.index().entries().stream().map(x -> x.product() + "/" + x.version()).toList()));
        AuthScheme auth = req.authScheme().map(s -> auth(s, req.authSecretFields(), req.authSettings()))
                .orElse(e.auth());
        List<String> compat = new ArrayList<>(e.compatibleVersions());
        compat.addAll(req.specInfoVersionsCompatible());
        long bytes = 0;
        for (String loc : e.specs()) {
            Path p = Path.of(loc.startsWith("file:") ? URI.create(loc).getPath() : loc);
            try {
                bytes += loc.contains("://") && !loc.startsWith("file:") ? Long.MAX_VALUE / 4 : Files.size(p);
            } catch (IOException | RuntimeException ex) {
                throw CatalogErrors.SPEC_UNREADABLE.error("the catalog index names spec " + loc + " for "
                        + key + ", which cannot be read: " + ex.getMessage(), Map.of());
            }
        }
        return new Plan(e.connectorId(), e.implId(), e.version(), e.product(), e.defaultPort(),
                e.specs().stream().map(SpecSource::of).toList(), bytes, auth, compat, owner, req.dryRun(),
                "catalog " + key, e.curatedGroups(), e.credentialReads(), e.notCredentialReads(), rules, basePath);
    }

    /** {@code base_path} as given: "/" or "/a/b" (a trailing slash dropped); "" stands for the root. */
    static String basePath(String given) {
        String p = given.strip();
        if (p.length() > 200 || !BASE_PATH.matcher(p).matches() || p.matches(".*/\\.{1,2}(/.*)?")) {
            throw invalid("invalid_request", "base_path must be an absolute path such as /api/v1 (at most 200 "
                    + "characters, no template, query, fragment or dot segment), got '"
                    + (p.length() > 80 ? p.substring(0, 80) + "..." : p) + "'",
                    "base_path");
        }
        return p.equals("/") ? "" : p.replaceAll("/$", "");
    }

    private static AuthScheme auth(String scheme, List<String> fields, Map<String, String> settings) {
        return new AuthScheme(scheme, fields.isEmpty() ? AuthScheme.defaultSecretFields(scheme) : fields, settings);
    }

    /**
     * The scope an ingest writes: omitted = global, which only a platform_admin may write (a global
     * connector is served to every tenant, so a tenant admin writing one could put code paths in front
     * of other tenants' targets); a tenant_admin names its own tenant.
     */
    static Optional<UUID> owner(Caller caller, Optional<String> tenantId) {
        if (tenantId.isEmpty()) {
            if (!caller.platformAdmin()) {
                throw CommonErrors.INSUFFICIENT_ROLE.error("a global connector (no --tenant-id) is served to "
                        + "every tenant and needs platform_admin; ingest it for your own tenant with --tenant-id "
                        + caller.tenantId()).withExtras("required_role", "platform_admin");
            }
            return Optional.empty();
        }
        UUID t;
        try {
            t = UUID.fromString(tenantId.get().trim());
        } catch (IllegalArgumentException e) {
            throw invalid("invalid_tenant_id", "tenant_id must be a uuid, got '" + tenantId.get() + "'", "tenant_id");
        }
        if (!t.equals(caller.tenantId()) && !caller.platformAdmin()) {
            throw CatalogErrors.TENANT_FORBIDDEN.error("cannot ingest for another tenant (" + t + "); omit "
                    + "--tenant-id for a global connector or name your own tenant " + caller.tenantId());
        }
        return Optional.of(t);
    }

    private static void check(Pattern p, String value, String field, String rule) {
        if (!p.matcher(value).matches()) {
            throw invalid("invalid_request", field + " must be " + rule + ", got '" + value + "'", field);
        }
    }

    private static DomainException invalid(String code, String message, String field) {
        return DomainException.unprocessable(code, message, Map.of("field", field));
    }
}
