package dev.backplane.kernel.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.ingest.IngestOptions;
import dev.backplane.ingest.IngestResult;
import dev.backplane.ingest.SpecIngestException;
import dev.backplane.ingest.SpecIngester;
import dev.backplane.ingest.SpecSource;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.IngestPlans.Plan;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.jobs.BackgroundJob;
import dev.backplane.kernel.jobs.BackgroundJobs;
import dev.backplane.kernel.jobs.JobKind;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OperationGroup;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * {@code svc connector ingest}: a vendor API spec becomes connector {@code <impl>-<version>} in state
 * staged, every operation default-deny. Catalog mode takes the spec location, auth scheme and
 * declared compatible versions from the {@link CatalogIndex}; manual mode takes them from the request
 * (the CLI uploads the spec text: the backplane never fetches operator-named URLs, which would be a
 * server-side request forgery channel). Small specs are ingested within the request; big ones in a
 * {@link BackgroundJobs background job} whose row is polled ({@code ingest-status}). A dry run writes nothing.
 */
public final class SpecIngestService {

    private static final System.Logger LOG = System.getLogger(SpecIngestService.class.getName());

    /** Background ingest of a big spec; a new job reads queued until its runner starts. */
    public static final JobKind JOB_KIND = new JobKind("connector_ingest", "ingest", "ingest", IngestRoutes.JOBS, true,
            "the kernel running this ingest stopped; run the ingest again");

    /**
     * The body of {@code POST /api/v1/connectors/ingest}.
     *
     * @param catalog {@code <product>/<version>} of the catalog index (catalog mode)
     * @param specs uploaded spec texts (manual mode)
     * @param tenantId owning tenant; absent = global
     * @param rules the rules file: corrections of class, safety and approval ({@link ClassificationRules}); absent or
     *              null = none
     * @param basePath the path every operation is sent under, in place of the one the spec names (its servers or
     *              basePath); absent = the spec's
     */
    public record IngestRequest(Optional<String> catalog, Optional<String> product, Optional<String> version,
                                Optional<String> impl, List<SpecUpload> specs, Optional<String> authScheme,
                                List<String> authSecretFields, Map<String, String> authSettings,
                                List<String> specInfoVersionsCompatible, Boolean dryRun, Optional<String> tenantId,
                                Optional<Integer> defaultPort, JsonNode rules, Optional<String> basePath) {

        /** A request that takes the spec's base path. */
        public IngestRequest(Optional<String> catalog, Optional<String> product, Optional<String> version,
                             Optional<String> impl, List<SpecUpload> specs, Optional<String> authScheme,
                             List<String> authSecretFields, Map<String, String> authSettings,
                             List<String> specInfoVersionsCompatible, Boolean dryRun, Optional<String> tenantId,
                             Optional<Integer> defaultPort, JsonNode rules) {
            this(catalog, product, version, impl, specs, authScheme, authSecretFields, authSettings,
                    specInfoVersionsCompatible, dryRun, tenantId, defaultPort, rules, Optional.empty());
        }

        /** A request without a rules file. */
        public IngestRequest(Optional<String> catalog, Optional<String> product, Optional<String> version,
                             Optional<String> impl, List<SpecUpload> specs, Optional<String> authScheme,
                             List<String> authSecretFields, Map<String, String> authSettings,
                             List<String> specInfoVersionsCompatible, Boolean dryRun, Optional<String> tenantId,
                             Optional<Integer> defaultPort) {
            this(catalog, product, version, impl, specs, authScheme, authSecretFields, authSettings,
                    specInfoVersionsCompatible, dryRun, tenantId, defaultPort, null);
        }

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
            basePath = orEmpty(basePath);
        }

        @SuppressWarnings("OptionalAssignedToNull")
        private static <T> Optional<T> orEmpty(Optional<T> o) {
            return o == null ? Optional.empty() : o;
        }
    }

    /**
     * One uploaded spec: one document ({@code content}), or the files of a multi-file spec ({@code files}, or one
     * zip, tar or tar.gz {@code archive_base64}), whose relative refs between them are followed and nothing else.
     *
     * @param name the file name, directory or URL the operator gave (shown in messages)
     * @param content the spec text
     * @param files a multi-file spec's files (relative path and text)
     * @param root which of the files is the root document; absent: the one with an openapi or swagger field
     * @param archiveBase64 a multi-file spec's files as a zip, tar or tar.gz archive, base64
     */
    public record SpecUpload(String name, String content, List<SpecFile> files, String root, String archiveBase64) {
        public SpecUpload(String name, String content) {
            this(name, content, null, null, null);
        }
    }

    /** One file of a multi-file spec: its path relative to the spec's directory, and its text. */
    public record SpecFile(String path, String content) {
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

    private final BackgroundJobs jobs;
    private final IngestPlans plans;
    private final IngestRun runs;
    private final long maxSpecBytes;
    private final long syncMaxBytes;

    /**
     * Prepares a freshly ingested connector's operation search — computes its operation embeddings — and waits,
     * reporting {@code (prepared, total)}; whether they are in ({@link CatalogService#prepareSearch}).
     */
    @FunctionalInterface
    public interface SearchPreparation {
        boolean prepare(LoadedConnector connector, BiConsumer<Integer, Integer> progress);
    }

    /**
     * @param audit where each rule a rules file applies is recorded (null: nowhere, for tools and tests)
     * @param searchPreparation computes a new connector's operation embeddings as the ingest's last stage
     *     ({@code catalog.ingest-embeddings}; empty: the first search does)
     */
    public SpecIngestService(BackgroundJobs jobs, IngestStore store, ConnectorRegistry registry, ChangeFeed feed,
                             long maxSpecBytes, long syncMaxBytes, AuditLog audit,
                             Optional<SearchPreparation> searchPreparation) {
        this.jobs = jobs;
        this.plans = new IngestPlans(registry, maxSpecBytes);
        this.runs = new IngestRun(store, registry, feed, maxSpecBytes, searchPreparation, Optional.ofNullable(audit));
        this.maxSpecBytes = maxSpecBytes;
        this.syncMaxBytes = syncMaxBytes;
    }

    /** The largest request body the ingest route accepts (spec uploads plus JSON escaping). */
    public int maxRequestBytes() {
        return (int) Math.min(Integer.MAX_VALUE - 1, maxSpecBytes * 2 + 65536);
    }

    public Answer ingest(Caller caller, IngestRequest req) {
        Plan plan = plans.plan(caller, req);
        if (plan.dryRun() || plan.bytes() <= syncMaxBytes) {
            return new Answer.Done(runs.run(plan, caller, p -> { }));
        }
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("source", plan.source());
        request.put("connector_id", plan.connectorId());
        request.put("scope", plan.owner().map(t -> "tenant").orElse("global"));
        request.put("auth_scheme", plan.auth().scheme());
        request.put("bytes", plan.bytes());
        UUID id = jobs.start(JOB_KIND, caller, request, Map.of("stage", "queued", "done", 0, "total", 0),
                progress -> runs.run(plan, caller, p -> {
                    Map<String, Object> now = Map.of("stage", p.stage(), "done", p.done(), "total", p.total());
                    if (p.stage().equals("done")) {
                        progress.reportLast(now); // written with the job's success, never while it still runs
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

    /**
     * The catalog with the index's curated group names and when-to-use texts in place of those derived from
     * tags; a curated key the spec has no group for is reported as a warning (the index is stale).
     */
    static Catalog curated(Catalog catalog, Map<String, OperationGroup> curatedGroups, List<String> warnings) {
        if (curatedGroups.isEmpty()) {
            return catalog;
        }
        Set<String> keys = new HashSet<>();
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
            LOG.log(System.Logger.Level.WARNING, "spec ingest of " + options.implId() + " refused ("
                    + e.reason().wireName() + "): " + e.getMessage());
            throw DomainException.unprocessable(e.reason().wireName(), e.getMessage(), Map.of());
        }
    }

    /** The options a catalog-mode ingest of {@code entry} runs with. */
    static IngestOptions options(CatalogIndex.Entry entry, long maxSpecBytes) {
        return new IngestOptions(entry.implId(), entry.version(), entry.product(), entry.compatibleVersions(),
                maxSpecBytes, false, p -> { }, entry.credentialReads(), entry.notCredentialReads());
    }
}
