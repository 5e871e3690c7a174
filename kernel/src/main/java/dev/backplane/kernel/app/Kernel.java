package dev.backplane.kernel.app;

import dev.backplane.kernel.app.IdentityRoutes;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.audit.AuditRoutes;
import dev.backplane.kernel.catalog.CatalogIndex;
import dev.backplane.kernel.catalog.CatalogRoutes;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.ConnectorRegistry;
import dev.backplane.kernel.catalog.IngestRoutes;
import dev.backplane.kernel.catalog.IngestStore;
import dev.backplane.kernel.catalog.SpecIngestService;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.dispatch.AsyncRuns;
import dev.backplane.kernel.dispatch.DispatchEvents;
import dev.backplane.kernel.dispatch.DispatchRoutes;
import dev.backplane.kernel.dispatch.Dispatcher;
import dev.backplane.kernel.dispatch.OperationCalls;
import dev.backplane.kernel.docs.DocsRoutes;
import dev.backplane.kernel.docs.DocsService;
import dev.backplane.kernel.egress.EgressProxy;
import dev.backplane.kernel.egress.GuardedSocketFactory;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.events.EventDrain;
import dev.backplane.kernel.events.EventIngest;
import dev.backplane.kernel.events.EventLog;
import dev.backplane.kernel.events.EventRoutes;
import dev.backplane.kernel.events.EventSources;
import dev.backplane.kernel.governance.AgentPrincipals;
import dev.backplane.kernel.governance.ApprovalRoutes;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.governance.GovernanceRoutes;
import dev.backplane.kernel.governance.Grants;
import dev.backplane.kernel.governance.PolicyGate;
import dev.backplane.kernel.governance.ServiceGrants;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Authenticator;
import dev.backplane.kernel.http.ErrorMapping;
import dev.backplane.kernel.http.OpenApiRoutes;
import dev.backplane.kernel.http.RequestIds;
import dev.backplane.kernel.identity.JwksKeys;
import dev.backplane.kernel.identity.TokenVerifier;
import dev.backplane.kernel.jobs.BackgroundJobs;
import dev.backplane.kernel.kb.IngestRoot;
import dev.backplane.kernel.kb.KbIngestService;
import dev.backplane.kernel.kb.KbRoutes;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.mcp.McpRoutes;
import dev.backplane.kernel.memory.MemoryRoutes;
import dev.backplane.kernel.memory.MemoryService;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Database;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.plugins.ConnectorSessions;
import dev.backplane.kernel.plugins.PluginLoading;
import dev.backplane.kernel.quality.RetireChecklist;
import dev.backplane.kernel.quality.RetrievalEval;
import dev.backplane.kernel.quality.RetrievalRoutes;
import dev.backplane.kernel.quality.UsageReport;
import dev.backplane.kernel.results.ResultHandles;
import dev.backplane.kernel.results.ResultQueryService;
import dev.backplane.kernel.retrieval.Embedder;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.scheduler.PeriodicJobs;
import dev.backplane.kernel.targets.ProbeService;
import dev.backplane.kernel.targets.TargetRoutes;
import dev.backplane.kernel.targets.TargetSecretRoutes;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.tenancy.TenancyRoutes;
import dev.backplane.kernel.tenancy.TenantService;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A running backplane: the database, the services wired with plain constructors, and the HTTP
 * server. {@link #start} is what {@link Main} and the integration tests call.
 */
public final class Kernel implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Kernel.class.getName());
    /** Recorded retrieval searches older than this are deleted (usage and the retire checklist look back 30 days). */
    private static final int SEARCH_RETENTION_DAYS = 400;

    private final KernelConfig config;
    private final Database database;
    private final WebServer server;
    private final ApiRoutes api;

    private final Closer closing;
    private final ChangeFeed changeFeed;
    private final DispatchEvents dispatchEvents;

    private final EventDrain eventDrain;

    private Kernel(KernelConfig config, Database database, WebServer server, ApiRoutes api, Closer closing,
                   ChangeFeed changeFeed, DispatchEvents dispatchEvents, EventDrain eventDrain) {
        this.changeFeed = changeFeed;
        this.eventDrain = eventDrain;
        this.dispatchEvents = dispatchEvents;
        this.config = config;
        this.database = database;
        this.server = server;
        this.api = api;
        this.closing = closing;
    }

    /** Resources the kernel owns besides the server and the database, closed in reverse order. */
    static final class Closer {
        private final java.util.ArrayDeque<AutoCloseable> resources = new java.util.ArrayDeque<>();

        <T extends AutoCloseable> T add(T resource) {
            resources.push(resource);
            return resource;
        }

        void closeAll() {
            while (!resources.isEmpty()) {
                try {
                    resources.pop().close();
                } catch (Exception e) {
                    LOG.log(Level.WARNING, "closing " + e.getMessage());
                }
            }
        }
    }

    public static Kernel start(KernelConfig config) {
        long t0 = System.nanoTime();
        String issuer = config.required(Setting.IDENTITY_ISSUER);
        Database database = Database.start(config.database());
        Closer closing = new Closer();
        try {
            ChangeFeed feed = closing.add(ChangeFeed.listening(database::dedicatedConnection,
                    new Jdbc(database.dataSource()),
                    Duration.ofSeconds(config.intValue(Setting.CACHE_MAX_STALE_SECONDS))));
            DispatchEvents dispatchEvents = new DispatchEvents();
            EventDrain drain = closing.add(new EventDrain(new Jdbc(database.dataSource()), feed));
            ApiRoutes api = buildApi(config, database, feed, dispatchEvents, drain, issuer, closing);
            HttpRouting.Builder routing = HttpRouting.builder().addFilter(new RequestIds());
            api.applyTo(routing);
            ErrorMapping.register(routing);
            WebServer server = WebServer.builder()
                    .host(config.get(Setting.SERVER_HOST))
                    .port(config.intValue(Setting.SERVER_PORT))
                    .directHandlers(ErrorMapping.directHandlers())
                    .routing(routing)
                    .shutdownHook(false)
                    .build()
                    .start();
            Kernel kernel = new Kernel(config, database, server, api, closing, feed, dispatchEvents, drain);
            LOG.log(Level.INFO, "svc backplane " + BuildInfo.load().version() + " ready at " + kernel.url() + " in "
                    + Duration.ofNanos(System.nanoTime() - t0).toMillis() + " ms; trusting tokens from " + issuer);
            return kernel;
        } catch (RuntimeException e) {
            closing.closeAll();
            database.close();
            throw e;
        }
    }

    private static EgressProxy egressProxy(GuardedSocketFactory sockets) {
        try {
            return new EgressProxy(sockets);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot open the plugin egress proxy on loopback", e);
        }
    }

    private static ApiRoutes buildApi(KernelConfig config, Database database, ChangeFeed feed,
                                      DispatchEvents dispatchEvents, EventDrain drain, String issuer,
                                      Closer closing) {
        Jdbc jdbc = new Jdbc(database.dataSource());
        TenantService tenants = new TenantService(jdbc);
        JwksKeys keys = new JwksKeys(issuer, config.optional(Setting.IDENTITY_JWKS_URL),
                Duration.ofSeconds(config.intValue(Setting.IDENTITY_JWKS_CACHE_SECONDS)));
        TokenVerifier restTokens = new TokenVerifier(issuer, config.get(Setting.IDENTITY_AUDIENCE), keys,
                config.list(Setting.IDENTITY_ALGORITHMS),
                Duration.ofSeconds(config.intValue(Setting.IDENTITY_CLOCK_SKEW)));
        AgentPrincipals agentPrincipals = new AgentPrincipals(jdbc, feed);
        Authenticator authenticator = new Authenticator(restTokens, tenants, "svc", Optional.empty(), agentPrincipals);
        ApiRoutes api = new ApiRoutes(authenticator);
        new HealthRoutes(database).register(api);
        RetrievalEngine retrieval = closing.add(new RetrievalEngine(jdbc, feed, new Embedder()));
        new InfoRoutes(BuildInfo.load(), config, mcpAudience(config), retrieval.vectorIndex()).register(api);
        new OpenApiRoutes().register(api);
        new IdentityRoutes().register(api);
        new TenancyRoutes(tenants).register(api);
        PluginLoading.Result plugins = PluginLoading.load(Path.of(config.get(Setting.PLUGIN_DIR)),
                Duration.ofSeconds(config.intValue(Setting.PLUGIN_CALL_TIMEOUT)));
        Path pluginDir = Path.of(config.get(Setting.PLUGIN_DIR));
        CatalogIndex index = CatalogIndex.load(config.optional(Setting.CATALOG_INDEX).filter(v -> !v.isBlank())
                .map(Path::of).orElse(pluginDir.resolve("catalog-index.json")));
        IngestStore ingested = new IngestStore(jdbc);
        ConnectorRegistry connectors = new ConnectorRegistry(plugins, ingested, feed, index,
                Duration.ofSeconds(config.intValue(Setting.PLUGIN_CALL_TIMEOUT)));
        CatalogService catalog = new CatalogService(connectors, jdbc, feed, retrieval);
        SearchLog searches = retrieval.searches();
        new CatalogRoutes(catalog).register(api);
        BackgroundJobs jobs = new BackgroundJobs(jdbc, List.of(SpecIngestService.JOB_KIND, KbIngestService.JOB_KIND));
        SpecIngestService specIngest = new SpecIngestService(jobs, ingested, connectors, feed,
                config.intValue(Setting.INGEST_MAX_SPEC_BYTES),
                config.intValue(Setting.INGEST_SYNC_MAX_BYTES));
        new IngestRoutes(specIngest).register(api);
        CredentialService credentials = CredentialService.start(config.credentials());
        SsrfGuard ssrf = SsrfGuard.fromSetting(config.get(Setting.TARGET_SSRF_ALLOWLIST));
        TargetService targets = new TargetService(jdbc, feed, connectors, ssrf, credentials.backend());
        Duration callTimeout = Duration.ofSeconds(config.intValue(Setting.PLUGIN_CALL_TIMEOUT));
        GuardedSocketFactory sockets = new GuardedSocketFactory(ssrf, (int) Math.min(10_000, callTimeout.toMillis()));
        EgressProxy egress = closing.add(egressProxy(sockets));
        ConnectorSessions sessions = new ConnectorSessions(egress, sockets, callTimeout);
        AuditLog audit = new AuditLog(jdbc);
        new TargetRoutes(targets, new ProbeService(targets, catalog, credentials, sessions, audit)).register(api);
        ResultHandles handles = new ResultHandles(jdbc,
                Duration.ofMinutes(config.intValue(Setting.RESULT_HANDLE_TTL)));
        Approvals approvals = new Approvals(jdbc, Duration.ofMinutes(config.intValue(Setting.APPROVAL_TTL)),
                audit);
        Grants grants = new Grants(jdbc);
        ServiceGrants serviceGrants = new ServiceGrants(jdbc, catalog::descriptor);
        PolicyGate gate = new PolicyGate(grants::decide, (tenant, principal, connectorId, opId, target) ->
                serviceGrants.covering(tenant, principal, connectorId, opId, target.id(), target.name(), target.product())
                        .isPresent(), agentPrincipals);
        Dispatcher dispatcher = new Dispatcher(catalog, targets, credentials, sessions, audit, approvals, gate, handles,
                dispatchEvents);
        new GovernanceRoutes(agentPrincipals, grants, serviceGrants).register(api);
        AsyncRuns runs = new AsyncRuns(jdbc, callTimeout);
        ResultQueryService resultQueries = new ResultQueryService(jdbc, handles);
        KbService kb = new KbService(jdbc, retrieval);
        KbIngestService kbIngest = new KbIngestService(jobs, kb, IngestRoot.fromSetting(config.get(Setting.KB_INGEST_ROOT),
                Path.of(config.get(Setting.DATA_DIR))));
        new KbRoutes(kb, kbIngest).register(api);
        MemoryService memory = new MemoryService(jdbc, retrieval,
                Duration.ofDays(config.intValue(Setting.MEMORY_USER_DEFAULT_TTL_DAYS)));
        new MemoryRoutes(memory).register(api);
        RetrievalEval eval = new RetrievalEval(jdbc, kb, memory, catalog);
        new RetrievalRoutes(eval, new RetireChecklist(jdbc, eval), new UsageReport(jdbc)).register(api);
        DocsService docs = DocsService.create(jdbc, audit, egress, ssrf, credentials,
                Duration.ofMillis(config.intValue(Setting.DOCS_BACKEND_TIMEOUT_MS)));
        new DocsRoutes(docs).register(api);
        OperationCalls calls = new OperationCalls(dispatcher, runs);
        new DispatchRoutes(calls, dispatcher, resultQueries, runs).register(api);
        TokenVerifier mcpTokens = new TokenVerifier(issuer, mcpAudience(config), keys,
                config.list(Setting.IDENTITY_ALGORITHMS),
                Duration.ofSeconds(config.intValue(Setting.IDENTITY_CLOCK_SKEW)));
        new McpRoutes(new Authenticator(mcpTokens, tenants, "svc", Optional.of(config.get(Setting.IDENTITY_MCP_CLIENT_ID)),
                agentPrincipals), mcpTokens, new McpRoutes.Services(targets, catalog, dispatcher,
                resultQueries, audit, kb, memory, docs), BuildInfo.load().version(), new McpRoutes.Settings(
                mcpAudience(config), issuer, config.optional(Setting.MCP_REQUIRED_SCOPE).filter(v -> !v.isBlank()),
                config.list(Setting.MCP_ALLOWED_ORIGINS), config.optional(Setting.PUBLIC_URL))).register(api);
        new ApprovalRoutes(approvals, calls).register(api);
        new AuditRoutes(new AuditQueries(jdbc), audit, caller -> name -> {
            try {
                return targets.describe(caller.tenantId(), name).name();
            } catch (dev.backplane.kernel.errors.DomainException unknown) {
                return name; // a deleted target is still in the log under its name
            }
        }).register(api);
        EventSources eventSources = new EventSources(jdbc, feed, credentials, audit,
                config.intValue(Setting.EVENTS_MAX_BODY_BYTES));
        EventLog eventLog = new EventLog(jdbc, config.intValue(Setting.EVENTS_RETENTION_DAYS));
        new EventRoutes(eventSources, new EventIngest(jdbc, eventSources, audit, drain,
                config.intValue(Setting.EVENTS_RATE_PER_SECOND)), eventLog).register(api);
        closing.add(new PeriodicJobs(database.dataSource(), List.of(
                new PeriodicJobs.Job("events-retention-sweep", Duration.ofHours(1), eventLog::sweep),
                new PeriodicJobs.Job("audit-started-reaper", Duration.ofMinutes(1),
                        () -> audit.reapStarted(callTimeout.plusMinutes(5))),
                new PeriodicJobs.Job("approvals-expiry", Duration.ofMinutes(1), approvals::expireDue),
                new PeriodicJobs.Job("result-handles-sweep", Duration.ofMinutes(10), handles::sweepExpired),
                new PeriodicJobs.Job("async-run-reaper", Duration.ofMinutes(1), runs::reapOrphans),
                new PeriodicJobs.Job("memory-sweep", Duration.ofMinutes(10), memory::sweepExpired),
                new PeriodicJobs.Job("background-job-reaper", Duration.ofMinutes(1), jobs::reapStale),
                new PeriodicJobs.Job("retrieval-searches-sweep", Duration.ofHours(6),
                        () -> searches.sweep(SEARCH_RETENTION_DAYS)))));
        new TargetSecretRoutes(targets, credentials).register(api);
        api.recordMutations(new dev.backplane.kernel.audit.GovernanceAudit(audit),
                dev.backplane.kernel.audit.GovernanceAudit.EXEMPT);
        return api;
    }

    static String mcpAudience(KernelConfig config) {
        return config.optional(Setting.IDENTITY_MCP_AUDIENCE).orElseGet(() -> publicUrl(config, -1) + "/mcp");
    }

    private static String publicUrl(KernelConfig config, int boundPort) {
        return config.optional(Setting.PUBLIC_URL).map(u -> u.replaceAll("/+$", "")).orElseGet(() -> {
            int port = boundPort > 0 ? boundPort : config.intValue(Setting.SERVER_PORT);
            return "http://" + config.get(Setting.SERVER_HOST) + ":" + port;
        });
    }

    public int port() {
        return server.port();
    }

    /** The URL clients reach this kernel at. */
    public String url() {
        return publicUrl(config, server.port());
    }

    public Database database() {
        return database;
    }

    /** The cross-replica cache invalidation feed (live once its LISTEN connection is up). */
    /** The event-log drain: subscribers register here to receive accepted events. */
    public EventDrain eventDrain() {
        return eventDrain;
    }

    public ChangeFeed changeFeed() {
        return changeFeed;
    }

    /** The pipeline's broadcast hook: subscribers hear every finished dispatch. */
    public DispatchEvents dispatchEvents() {
        return dispatchEvents;
    }

    public ApiRoutes api() {
        return api;
    }

    @Override
    public void close() {
        server.stop();
        closing.closeAll();
        database.close();
        LOG.log(Level.INFO, "svc backplane stopped");
    }
}
