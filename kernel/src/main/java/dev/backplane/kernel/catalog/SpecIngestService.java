package dev.backplane.kernel.catalog;

import dev.backplane.ingest.IngestOptions;
import dev.backplane.ingest.IngestResult;
import dev.backplane.ingest.SpecIngestException;
import dev.backplane.ingest.SpecIngester;
import dev.backplane.ingest.SpecSource;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.jobs.BackgroundJob;
import dev.backplane.kernel.jobs.BackgroundJobs;
import dev.backplane.kernel.jobs.JobKind;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.OperationDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * {@code svc connector ingest}: a vendor API spec becomes connector {@code <impl>-<version>} in state
 * staged, every operation default-deny. Catalog mode takes the spec location, auth scheme and
 * declared compatible versions from the {@link CatalogIndex}; manual mode takes them from the request
 * (the CLI uploads the spec text: the backplane never fetches operator-named URLs, which would be a
 * server-side request forgery channel). Small specs are ingested within the request; big ones in a
 * {@link BackgroundJobs background job} whose row is polled ({@code ingest-status}). A dry run writes nothing.
 */
public final class SpecIngestService {

    /** Background ingest of a big spec; a new job reads queued until its runner starts. */
    public static final JobKind JOB_KIND = new JobKind("connector_ingest", "ingest", "ingest", IngestRoutes.JOBS, true,
            "the kernel running this ingest stopped; run the ingest again");
    private static final Pattern IMPL = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
    private static final Pattern VERSION = Pattern.compile("[0-9A-Za-z][0-9A-Za-z.]*");
    private static final Pattern PRODUCT = Pattern.compile("[a-z][a-z0-9-]*");
    private static final String ENGINE = "openapi";

    /**
     * The body of {@code POST /api/v1/connectors/ingest}.
     *
     * @param catalog {@code <product>/<version>} of the catalog index (catalog mode)
     * @param specs uploaded spec texts (manual mode)
     * @param tenantId owning tenant; absent = global
     */
    public record IngestRequest(Optional<String> catalog, Optional<String> product, Optional<String> version,
                                Optional<String> impl, List<SpecUpload> specs, Optional<String> authScheme,
                                List<String> authSecretFields, Map<String, String> authSettings,
                                List<String> specInfoVersionsCompatible, Boolean dryRun, Optional<String> tenantId,
                                Optional<Integer> defaultPort) {
        public IngestRequest {
            catalog = orEmpty(catalog);
            product = orEmpty(product);
            version = orEmpty(version);
            impl = orEmpty(impl);
            specs = specs == null ? List.of() : List.copyOf(specs);
            authScheme = orEmpty(authScheme);
            authSecretFields = authSecretFields == null ? List.of() : List.copyOf(authSecretFields);
            authSettings = authSettings == null ? Map.of() : Map.copyOf(authSettings);
            specInfoVersionsCompatible = specInfoVersionsCompatible == null ? List.of()
                    : List.copyOf(specInfoVersionsCompatible);
            tenantId = orEmpty(tenantId);
            dryRun = dryRun != null && dryRun;
            defaultPort = defaultPort == null ? Optional.empty() : defaultPort;
        }

        @SuppressWarnings("OptionalAssignedToNull")
        private static <T> Optional<T> orEmpty(Optional<T> o) {
            return o == null ? Optional.empty() : o;
        }
    }

    /**
     * One uploaded spec.
     *
     * @param name the file name or URL the operator gave (shown in messages)
     * @param content the spec text
     */
    public record SpecUpload(String name, String content) {
    }

    /** What {@link #ingest} answered: a finished result (200) or a started job (202). */
    public sealed interface Answer {
        /** Finished within the request. */
        record Done(Map<String, Object> result) implements Answer {
        }

        /** Running in the background. */
        record Started(Map<String, Object> job) implements Answer {
        }
    }

    /** A validated request, ready to run. */
    private record Plan(String connectorId, String implId, String version, String product, int defaultPort,
                        List<SpecSource> sources, long bytes, AuthScheme auth, List<String> compatible,
                        Optional<UUID> owner, boolean dryRun, String source, Map<String, OperationGroup> curatedGroups,
                        List<String> credentialReads, List<String> notCredentialReads) {
    }

    private final BackgroundJobs jobs;
    private final IngestStore store;
    private final ConnectorRegistry registry;
    private final ChangeFeed feed;
    private final long maxSpecBytes;
    private final long syncMaxBytes;

    public SpecIngestService(BackgroundJobs jobs, IngestStore store, ConnectorRegistry registry, ChangeFeed feed,
                             long maxSpecBytes, long syncMaxBytes) {
        this.jobs = jobs;
        this.store = store;
        this.registry = registry;
        this.feed = feed;
        this.maxSpecBytes = maxSpecBytes;
        this.syncMaxBytes = syncMaxBytes;
    }

    /** The largest request body the ingest route accepts (spec uploads plus JSON escaping). */
    public int maxRequestBytes() {
        return (int) Math.min(Integer.MAX_VALUE - 1, maxSpecBytes * 2 + 65536);
    }

    public Answer ingest(Caller caller, IngestRequest req) {
        Plan plan = plan(caller, req);
        if (plan.dryRun() || plan.bytes() <= syncMaxBytes) {
            return new Answer.Done(run(plan, caller.sub(), p -> { }));
        }
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("source", plan.source());
        request.put("connector_id", plan.connectorId());
        request.put("scope", plan.owner().map(t -> "tenant").orElse("global"));
        request.put("auth_scheme", plan.auth().scheme());
        request.put("bytes", plan.bytes());
        UUID id = jobs.start(JOB_KIND, caller, request, Map.of("stage", "queued", "done", 0, "total", 0),
                progress -> run(plan, caller.sub(), p -> {
                    Map<String, Object> now = Map.of("stage", p.stage(), "done", p.done(), "total", p.total());
                    if (p.stage().equals("done")) {
                        progress.reportNow(now);
                    } else {
                        progress.report(now);
                    }
                }));
        return new Answer.Started(job(caller, id));
    }

    /** {@code svc connector ingest-status}: the job as its tenant sees it (another tenant's job is not found). */
    public Map<String, Object> job(Caller caller, UUID id) {
        BackgroundJob job = jobs.job(caller, JOB_KIND, id);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("job_id", job.id().toString());
        m.put("status", job.status());
        m.put("terminal", job.terminal());
        m.put("connector_id", job.details().path("connector_id").asText());
        m.put("progress", job.progress());
        m.put("result", job.result());
        m.put("error", job.error());
        m.put("created_at", job.createdAt().toString());
        m.put("updated_at", job.updatedAt().toString());
        m.put("finished_at", job.finishedAt().map(Instant::toString).orElse(null));
        m.put("poll_url", job.pollUrl());
        return m;
    }

    private Plan plan(Caller caller, IngestRequest req) {
        Optional<UUID> owner = owner(caller, req.tenantId());
        if (!req.authSecretFields().isEmpty() && req.authScheme().isEmpty()) {
            throw invalid("auth_secret_field_without_scheme", "--auth-secret-field needs --auth-scheme",
                    "auth_secret_fields");
        }
        req.authScheme().ifPresent(s -> {
            if (!AuthScheme.SCHEMES.contains(s)) {
                throw CatalogErrors.INVALID_AUTH_SCHEME.error("unknown auth scheme '" + s + "'; one of "
                        + new java.util.TreeSet<>(AuthScheme.SCHEMES), Map.of("field", "auth_scheme",
                        "valid_auth_schemes", new java.util.TreeSet<>(AuthScheme.SCHEMES)));
            }
        });
        boolean manual = req.product().isPresent() || req.version().isPresent() || req.impl().isPresent()
                || !req.specs().isEmpty();
        if (req.catalog().isPresent() == manual) {
            throw invalid("invalid_ingest_mode", "give either catalog (<product>/<version>, catalog mode) or product, "
                    + "version and at least one spec (manual mode), not both and not neither", "catalog");
        }
        if (req.catalog().isPresent()) {
            return catalogPlan(req, owner);
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
            if (u == null || u.content() == null || u.content().isBlank()) {
                throw invalid("invalid_request", "every spec needs its content", "specs");
            }
            long size = u.content().getBytes(StandardCharsets.UTF_8).length;
            if (size > maxSpecBytes) {
                throw CatalogErrors.SPEC_TOO_LARGE.error("spec " + u.name() + " is " + size + " bytes; the "
                        + "cap is " + maxSpecBytes + " (setting catalog.ingest-max-spec-bytes)", Map.of());
            }
            bytes += size;
            sources.add(SpecSource.text(u.name() == null ? "spec" : u.name(), u.content()));
        }
        String scheme = req.authScheme().orElse("none");
        AuthScheme auth = auth(scheme, req.authSecretFields(), req.authSettings());
        int port = req.defaultPort().orElse(443);
        if (port < 1 || port > 65535) {
            throw invalid("invalid_request", "default_port must be 1..65535", "default_port");
        }
        return new Plan(impl + "-" + version, impl, version, product, port, sources, bytes, auth,
                req.specInfoVersionsCompatible(), owner, req.dryRun(), "manual", Map.of(), List.of(), List.of());
    }

    private Plan catalogPlan(IngestRequest req, Optional<UUID> owner) {
        String key = req.catalog().orElseThrow();
        CatalogIndex.Entry e = registry.index().find(key).orElseThrow(() -> CatalogErrors.UNKNOWN_CATALOG_ENTRY.error("the catalog index has no '" + key + "'").withExtras("valid_catalog_entries",
                registry.index().entries().stream().map(x -> x.product() + "/" + x.version()).toList()));
        AuthScheme auth = req.authScheme().map(s -> auth(s, req.authSecretFields(), req.authSettings()))
                .orElse(e.auth());
        List<String> compat = new ArrayList<>(e.compatibleVersions());
        compat.addAll(req.specInfoVersionsCompatible());
        long bytes = 0;
        for (String loc : e.specs()) {
            Path p = Path.of(loc.startsWith("file:") ? java.net.URI.create(loc).getPath() : loc);
            try {
                bytes += loc.contains("://") && !loc.startsWith("file:") ? Long.MAX_VALUE / 4 : Files.size(p);
            } catch (IOException | RuntimeException ex) {
                throw CatalogErrors.SPEC_UNREADABLE.error("the catalog index names spec " + loc + " for "
                        + key + ", which cannot be read: " + ex.getMessage(), Map.of());
            }
        }
        return new Plan(e.connectorId(), e.implId(), e.version(), e.product(), e.defaultPort(),
                e.specs().stream().map(SpecSource::of).toList(), bytes, auth, compat, owner, req.dryRun(),
                "catalog " + key, e.curatedGroups(), e.credentialReads(), e.notCredentialReads());
    }

    /**
     * The catalog with the index's curated group names and when-to-use texts in place of those derived from
     * tags; a curated key the spec has no group for is reported as a warning (the index is stale).
     */
    static Catalog curated(Catalog catalog, Map<String, OperationGroup> curatedGroups, List<String> warnings) {
        if (curatedGroups.isEmpty()) {
            return catalog;
        }
        Set<String> keys = new java.util.HashSet<>();
        List<OperationGroup> groups = catalog.groups().stream().map(g -> {
            keys.add(g.groupKey());
            return curatedGroups.getOrDefault(g.groupKey(), g);
        }).toList();
        curatedGroups.keySet().stream().filter(k -> !keys.contains(k)).sorted().forEach(k -> warnings.add(
                "the catalog index curates group '" + k + "', which the spec does not have"));
        return new Catalog(groups, catalog.operations());
    }

    /**
     * The specs as a catalog. Which reads are credential reads (the index's {@code credential_reads} and
     * {@code not_credential_reads}, and the heuristic for every mode) is decided in one place, the ingest
     * tool's {@link dev.backplane.ingest.CredentialReads}.
     */
    static IngestResult convert(List<SpecSource> sources, IngestOptions options) {
        try {
            return SpecIngester.ingest(sources, options);
        } catch (SpecIngestException e) {
            throw DomainException.unprocessable(e.reason().wireName(), e.getMessage(), Map.of());
        }
    }

    /** The options a catalog-mode ingest of {@code entry} runs with. */
    static IngestOptions options(CatalogIndex.Entry entry, long maxSpecBytes) {
        return new IngestOptions(entry.implId(), entry.version(), entry.product(), entry.compatibleVersions(),
                maxSpecBytes, false, p -> { }, entry.credentialReads(), entry.notCredentialReads());
    }

    private static AuthScheme auth(String scheme, List<String> fields, Map<String, String> settings) {
        return new AuthScheme(scheme, fields.isEmpty() ? AuthScheme.defaultSecretFields(scheme) : fields, settings);
    }

    /**
     * The scope an ingest writes: omitted = global, which only a platform_admin may write (a global
     * connector is served to every tenant, so a tenant admin writing one could put code paths in front
     * of other tenants' targets); a tenant_admin names its own tenant.
     */
    private static Optional<UUID> owner(Caller caller, Optional<String> tenantId) {
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

    private Map<String, Object> run(Plan plan, String actor, java.util.function.Consumer<IngestOptions.Progress> progress) {
        if (registry.isPlugin(plan.connectorId())) {
            throw CatalogErrors.CONNECTOR_EXISTS.error("connector " + plan.connectorId()
                    + " is provided by a plugin jar; choose another --impl or --version", Map.of());
        }
        IngestResult result = convert(plan.sources(), new IngestOptions(plan.implId(), plan.version(),
                plan.product(), plan.compatible(), maxSpecBytes, false, progress, plan.credentialReads(),
                plan.notCredentialReads()));
        ConnectorDescriptor descriptor = new ConnectorDescriptor(plan.implId(), plan.version(),
                List.of(new ConnectorDescriptor.Product(plan.product(), plan.defaultPort())), List.of(plan.version()),
                plan.auth().secretFields());
        List<String> warnings = new ArrayList<>(result.warnings());
        IngestedConnector connector = new IngestedConnector(descriptor, curated(result.catalog(),
                plan.curatedGroups(), warnings), result.basePath(), plan.auth());
        List<Map<String, Object>> specs = result.specs().stream().map(s -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("location", s.location());
            m.put("format", s.format());
            m.put("title", s.title());
            m.put("info_version", s.infoVersion());
            m.put("sha256", s.sha256());
            m.put("bytes", s.bytes());
            m.put("operations", s.operations());
            return m;
        }).toList();
        boolean created = true;
        int reviewsReset = 0;
        if (!plan.dryRun()) {
            Map<String, Object> forRevision = new TreeMap<>();
            forRevision.put("catalog", IngestStore.catalogJson(connector.catalog()));
            forRevision.put("auth", IngestStore.authJson(plan.auth()));
            forRevision.put("base_path", result.basePath());
            forRevision.put("descriptor", List.of(descriptor.products().getFirst().token(),
                    descriptor.products().getFirst().defaultPort()));
            String revision = Digests.sha256Hex(JsonMapping.write(forRevision));
            IngestStore.Saved saved = store.save(plan.owner(), connector, ENGINE, specs, warnings, revision,
                    actor);
            created = saved.created();
            reviewsReset = saved.reviewsReset().size();
            saved.reviewsReset().forEach(t -> feed.changed(ReviewStore.TOPIC, ReviewStore.key(t, plan.connectorId())));
            feed.changed(ConnectorRegistry.TOPIC, plan.connectorId());
        } else {
            created = !store.existsInScope(plan.owner(), plan.connectorId());
        }
        Map<String, Object> view = view(plan, connector, specs, warnings, created);
        view.put("reviews_reset", reviewsReset);
        return view;
    }

    private static Map<String, Object> view(Plan plan, IngestedConnector c, List<Map<String, Object>> specs,
                                            List<String> warnings, boolean created) {
        Map<String, Integer> perGroup = new LinkedHashMap<>();
        Map<String, Integer> safety = new TreeMap<>();
        int reads = 0;
        for (OperationDescriptor op : c.catalog().operations()) {
            perGroup.merge(op.groupKey(), 1, Integer::sum);
            safety.merge(op.safetyLevel().wireName(), 1, Integer::sum);
            reads += op.isReadClass() ? 1 : 0;
        }
        List<Map<String, Object>> groups = c.catalog().groups().stream().map(g -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("group_key", g.groupKey());
            m.put("display_name", g.displayName());
            m.put("operation_count", perGroup.getOrDefault(g.groupKey(), 0));
            return m;
        }).toList();
        String id = plan.connectorId();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("connector_id", id);
        m.put("dry_run", plan.dryRun());
        m.put("created", created);
        m.put("status", "staged");
        m.put("scope", plan.owner().map(t -> "tenant").orElse("global"));
        m.put("tenant_id", plan.owner().map(UUID::toString).orElse(null));
        m.put("product", plan.product());
        m.put("impl_id", plan.implId());
        m.put("version", plan.version());
        m.put("base_path", c.basePath());
        m.put("auth", Map.of("scheme", c.auth().scheme(), "secret_fields", c.auth().secretFields()));
        m.put("operation_count", c.catalog().operations().size());
        m.put("read_operation_count", reads);
        m.put("group_count", c.catalog().groups().size());
        m.put("safety_counts", safety);
        m.put("groups", groups);
        m.put("specs", specs);
        m.put("warnings", warnings);
        m.put("next_steps", plan.dryRun() ? List.of("run the same command without --dry-run to ingest")
                : List.of("svc connector review " + id, "svc connector enable-reads " + id + " --confirm",
                "svc connector enable " + id + " --confirm"));
        m.put("ingested_at", plan.dryRun() ? null : Instant.now().toString());
        return m;
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
