package dev.backplane.kernel.app;

import dev.backplane.kernel.agents.AgentDefinitions;
import dev.backplane.kernel.agents.AgentRuns;
import dev.backplane.kernel.agents.AgentToolbox;
import dev.backplane.kernel.agents.ModelGateway;
import dev.backplane.kernel.audit.AuditIntegrity;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.audit.archive.AuditArchives;
import dev.backplane.kernel.audit.integrity.SealKey;
import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.audit.stream.AuditStreamer;
import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.broadcast.BroadcastHub;
import dev.backplane.kernel.broadcast.BroadcastOverrides;
import dev.backplane.kernel.catalog.CatalogIndex;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.ConnectorPreferences;
import dev.backplane.kernel.catalog.ConnectorRegistry;
import dev.backplane.kernel.catalog.Implementations;
import dev.backplane.kernel.catalog.IngestStore;
import dev.backplane.kernel.catalog.SpecIngestService;
import dev.backplane.kernel.conventions.Conventions;
import dev.backplane.kernel.dashboards.DashboardNotifier;
import dev.backplane.kernel.dashboards.Dashboards;
import dev.backplane.kernel.dashboards.Mailer;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.dispatch.AsyncRuns;
import dev.backplane.kernel.dispatch.DispatchEvents;
import dev.backplane.kernel.dispatch.DispatchMetrics;
import dev.backplane.kernel.dispatch.Dispatcher;
import dev.backplane.kernel.dispatch.OperationCalls;
import dev.backplane.kernel.docs.DocsService;
import dev.backplane.kernel.egress.EgressProxy;
import dev.backplane.kernel.egress.GuardedSocketFactory;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.events.EventDrain;
import dev.backplane.kernel.events.EventIngest;
import dev.backplane.kernel.events.EventLog;
import dev.backplane.kernel.events.EventSources;
import dev.backplane.kernel.governance.AgentPrincipals;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.governance.Grants;
import dev.backplane.kernel.governance.PolicyGate;
import dev.backplane.kernel.governance.ServiceGrants;
import dev.backplane.kernel.http.Authenticator;
import dev.backplane.kernel.identity.JwksKeys;
import dev.backplane.kernel.identity.TokenVerifier;
import dev.backplane.kernel.jobs.BackgroundJobs;
import dev.backplane.kernel.kb.IngestRoot;
import dev.backplane.kernel.kb.KbIngestService;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.memory.MemoryService;
import dev.backplane.kernel.notifications.ApprovalNotifications;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Database;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.plugins.ConnectorSessions;
import dev.backplane.kernel.plugins.PluginLoading;
import dev.backplane.kernel.quality.RetrievalEval;
import dev.backplane.kernel.results.ResultHandles;
import dev.backplane.kernel.results.ResultQueryService;
import dev.backplane.kernel.retrieval.Embedder;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.scheduler.Automations;
import dev.backplane.kernel.scheduler.EventTriggerAutomations;
import dev.backplane.kernel.runbooks.RunbookRuns;
import dev.backplane.kernel.runbooks.RunbookTemplates;
import dev.backplane.kernel.scheduler.CronFiring;
import dev.backplane.kernel.scheduler.PeriodicJobs;
import dev.backplane.kernel.scheduler.TriggerFiring;
import dev.backplane.kernel.scheduler.Triggers;
import dev.backplane.kernel.sensors.SensorAutomations;
import dev.backplane.kernel.sensors.SensorRuns;
import dev.backplane.kernel.sensors.Sensors;
import dev.backplane.kernel.targets.ProbeService;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.tools.ToolRegistry;
import dev.backplane.kernel.topology.Topology;
import dev.backplane.kernel.tenancy.TenantService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Every service of one kernel, built with plain constructors in dependency order. No routes here:
 * {@link KernelRoutes} puts the REST and MCP surfaces on top of these.
 */
final class KernelServices {

    final Database database;
    final Jdbc jdbc;
    final ChangeFeed feed;
    final DispatchEvents dispatchEvents;
    final EventDrain drain;
    final String issuer;
    final TenantService tenants;
    final JwksKeys keys;
    final AgentPrincipals agentPrincipals;
    final Authenticator restAuthenticator;
    final RetrievalEngine retrieval;
    final ConnectorRegistry connectors;
    final CatalogService catalog;
    final Implementations implementations;
    final SpecIngestService specIngest;
    final CredentialService credentials;
    final TargetService targets;
    final ProbeService probes;
    final AuditLog audit;
    final AuditIntegrity auditIntegrity;
    final AuditStreamer auditStream;
    final ResultHandles handles;
    final Approvals approvals;
    final Grants grants;
    final ServiceGrants serviceGrants;
    final Dispatcher dispatcher;
    final AsyncRuns runs;
    final OperationCalls calls;
    final ResultQueryService resultQueries;
    final KbService kb;
    final KbIngestService kbIngest;
    final MemoryService memory;
    final Conventions conventions;
    final RetrievalEval eval;
    final DocsService docs;
    final EventSources eventSources;
    final EventLog eventLog;
    final EventIngest eventIngest;
    final BackgroundJobs jobs;
    final AgentDefinitions agents;
    final AgentRuns agentRuns;
    final Triggers triggers;
    final BroadcastFeed broadcast;
    final RunbookTemplates runbookTemplates;
    final RunbookRuns runbookRuns;
    final BroadcastHub broadcastHub;
    final Automations automations;
    final io.micrometer.prometheusmetrics.PrometheusMeterRegistry metrics;
    final Tracing tracing;
    final Topology topology;
    final Sensors sensors;
    final SensorRuns sensorRuns;
    /** db-scheduler's periodic jobs (sensors due, cron triggers, reapers, sweeps). */
    final PeriodicJobs periodicJobs;
    final Dashboards dashboards;
    final ApprovalNotifications approvalNotifications;
    /** What the agent tools call (the MCP endpoint's registry and the agent runs' are built from it). */
    private final KernelTools.Services toolServices;

    KernelServices(KernelConfig config, Database database, ChangeFeed feed, DispatchEvents dispatchEvents,
                   EventDrain drain, String issuer, Kernel.Closer closing, Supplier<String> publicUrl) {
        ReplicaRules.requireSharedSecretStore(config); // before anything starts: no split state, no half start
        this.database = database;
        this.feed = feed;
        this.dispatchEvents = dispatchEvents;
        this.drain = drain;
        this.issuer = issuer;
        this.jdbc = new Jdbc(database.dataSource());
        this.tenants = new TenantService(jdbc);
        this.keys = new JwksKeys(issuer, config.optional(Setting.IDENTITY_JWKS_URL),
                Duration.ofSeconds(config.intValue(Setting.IDENTITY_JWKS_CACHE_SECONDS)), config.outboundTrust().sslContext());
        this.agentPrincipals = new AgentPrincipals(jdbc, feed);
        this.restAuthenticator = new Authenticator(tokenVerifier(config, config.get(Setting.IDENTITY_AUDIENCE)), tenants,
                "svc", Optional.empty(), agentPrincipals);
        this.retrieval = closing.add(RetrievalEngine.following(jdbc, feed, new Embedder(config.retrievalModel())));

        Duration callTimeout = Duration.ofSeconds(config.intValue(Setting.PLUGIN_CALL_TIMEOUT));
        Path pluginDir = Path.of(config.get(Setting.PLUGIN_DIR));
        PluginLoading.Result plugins = PluginLoading.load(pluginDir, callTimeout);
        ReplicaRules.logPluginSet(pluginDir, plugins);
        CatalogIndex index = CatalogIndex.load(config.optional(Setting.CATALOG_INDEX).filter(v -> !v.isBlank())
                .map(Path::of).orElse(pluginDir.resolve("catalog-index.json")));
        IngestStore ingested = new IngestStore(jdbc);
        this.connectors = new ConnectorRegistry(plugins, ingested, feed, index, callTimeout);
        this.catalog = new CatalogService(connectors, jdbc, feed, retrieval, config.intValue(Setting.SEARCH_FIRST_WAIT_MS));
        List<dev.backplane.kernel.jobs.JobKind> jobKinds = List.of(SpecIngestService.JOB_KIND, KbIngestService.JOB_KIND);
        this.jobs = new BackgroundJobs(jdbc, jobKinds);
        this.tracing = closing.add(Tracing.start(config.optional(Setting.TRACING_OTLP_ENDPOINT),
                BuildInfo.load().version(), Duration.ofMillis(config.intValue(Setting.TRACING_EXPORT_DELAY_MS))));
        this.metrics = KernelMetrics.create(database, jdbc, jobKinds.stream().map(k -> k.name()).toList(),
                plugins.broken().size(), connectors::isShared);
        retrieval.meterInto(metrics);
        keys.meterInto(metrics);
        this.audit = new AuditLog(jdbc, metrics);
        this.specIngest = new SpecIngestService(jobs, ingested, connectors, feed,
                config.intValue(Setting.INGEST_MAX_SPEC_BYTES), config.intValue(Setting.INGEST_SYNC_MAX_BYTES), audit,
                config.boolValue(Setting.INGEST_EMBEDDINGS) ? Optional.of(catalog::prepareSearch) : Optional.empty());

        this.credentials = CredentialService.start(config.credentials());
        SsrfGuard ssrf = SsrfGuard.fromSetting(config.get(Setting.TARGET_SSRF_ALLOWLIST));
        this.targets = new TargetService(jdbc, feed, connectors, ssrf, credentials.backend());
        GuardedSocketFactory sockets = new GuardedSocketFactory(ssrf, (int) Math.min(10_000, callTimeout.toMillis()));
        EgressProxy egress = closing.add(egressProxy(sockets));
        Duration compositeTimeout = Duration.ofSeconds(config.intValue(Setting.PLUGIN_COMPOSITE_TIMEOUT));
        ConnectorSessions sessions = new ConnectorSessions(egress, sockets, callTimeout, compositeTimeout,
                Optional.of(config.outboundTrust().trustManager()));
        this.auditIntegrity = AuditIntegrity.create(jdbc, metrics, sealKey(config),
                new AuditArchives.Policy(config.intValue(Setting.AUDIT_RETENTION_DAYS),
                        config.intValue(Setting.AUDIT_RETENTION_MIN_DAYS), config.intValue(Setting.AUDIT_PARTITIONS_AHEAD_MONTHS),
                        config.optional(Setting.AUDIT_ARCHIVE_DIR).filter(d -> !d.isBlank()).map(Path::of)),
                new AuditIntegrity.Schedule(config.boolValue(Setting.AUDIT_CHAIN_ENABLED),
                        Duration.ofSeconds(config.intValue(Setting.AUDIT_CHAIN_INTERVAL_SECONDS)),
                        Duration.ofSeconds(config.intValue(Setting.AUDIT_SEAL_INTERVAL_SECONDS)),
                        Duration.ofSeconds(config.intValue(Setting.AUDIT_RETENTION_INTERVAL_SECONDS))));
        this.auditStream = new AuditStreamer(jdbc, auditStreamSettings(config), config.outboundTrust().sslContext(),
                metrics);
        this.broadcast = closing.add(new BroadcastFeed(jdbc, new BroadcastOverrides(jdbc, feed), config.broadcast()));
        this.broadcastHub = closing.add(new BroadcastHub(jdbc, feed, config.broadcast()));
        dispatchEvents.subscribe(e -> broadcast.publish(e.activity()));
        this.implementations = new Implementations(catalog, new ConnectorPreferences(jdbc, connectors));
        this.probes = new ProbeService(targets, catalog, credentials, sessions, audit, implementations);

        this.handles = new ResultHandles(jdbc, Duration.ofMinutes(config.intValue(Setting.RESULT_HANDLE_TTL)),
                Long.parseLong(config.get(Setting.RESULT_HANDLE_MAX_BYTES)));
        Mailer mailer = mailer(config);
        this.approvalNotifications = new ApprovalNotifications(jdbc, tenants, audit, mailer, credentials, ssrf, egress,
                config.outboundTrust().sslContext(), publicUrl, ApprovalNotifications.Delivery.of(
                        Duration.ofSeconds(config.intValue(Setting.NOTIFICATIONS_RETRY_INITIAL_SECONDS)),
                        Duration.ofSeconds(config.intValue(Setting.NOTIFICATIONS_RETRY_MAX_SECONDS)),
                        config.intValue(Setting.NOTIFICATIONS_MAX_ATTEMPTS),
                        Duration.ofMillis(config.intValue(Setting.NOTIFICATIONS_WEBHOOK_TIMEOUT_MS)),
                        Duration.ofMillis(config.intValue(Setting.MAIL_SMTP_TIMEOUT_MS))));
        approvalNotifications.meterInto(metrics);
        agentPrincipals.onApprovalEvents(approvalNotifications);
        this.approvals = new Approvals(jdbc, Duration.ofMinutes(config.intValue(Setting.APPROVAL_TTL)), audit, broadcast,
                dev.backplane.kernel.agents.AgentRuns::accountable, approvalNotifications);
        this.grants = new Grants(jdbc);
        this.serviceGrants = new ServiceGrants(jdbc, catalog::descriptor);
        PolicyGate gate = new PolicyGate(grants::decide, serviceGrants.lookup(), agentPrincipals);
        this.dispatcher = new Dispatcher(catalog, implementations, targets, credentials, sessions, audit, approvals, gate, handles,
                dispatchEvents, new DispatchMetrics(metrics, tracing.tracer()));
        this.runs = new AsyncRuns(jdbc, callTimeout);
        this.calls = new OperationCalls(dispatcher, runs);
        this.resultQueries = new ResultQueryService(jdbc, handles);

        this.kb = new KbService(jdbc, retrieval);
        ReplicaRules.noteKbIngestRoot(config);
        this.kbIngest = new KbIngestService(jobs, kb, IngestRoot.fromSetting(config.get(Setting.KB_INGEST_ROOT),
                Path.of(config.get(Setting.DATA_DIR))));
        this.memory = new MemoryService(jdbc, retrieval,
                Duration.ofDays(config.intValue(Setting.MEMORY_USER_DEFAULT_TTL_DAYS)));
        this.conventions = new Conventions(jdbc, retrieval, config.intValue(Setting.CONVENTIONS_MCP_TOKEN_BUDGET));
        this.eval = new RetrievalEval(jdbc, kb, memory, catalog, conventions);
        this.docs = DocsService.create(jdbc, audit, egress, ssrf, credentials,
                Duration.ofMillis(config.intValue(Setting.DOCS_BACKEND_TIMEOUT_MS)));

        this.eventSources = new EventSources(jdbc, feed, credentials, audit, config.intValue(Setting.EVENTS_MAX_BODY_BYTES),
                config.optional(Setting.CLOUDSM_PROJECT));
        this.eventLog = new EventLog(jdbc, config.intValue(Setting.EVENTS_RETENTION_DAYS));
        this.eventIngest = closing.add(new EventIngest(jdbc, eventSources, audit, drain,
                config.intValue(Setting.EVENTS_RATE_PER_SECOND), broadcast));

        this.toolServices = new KernelTools.Services(targets, catalog, dispatcher, resultQueries, audit, kb, memory, docs);
        ToolRegistry agentTools = tools(SearchLog.Transport.AGENT);
        this.agents = new AgentDefinitions(jdbc, agentPrincipals, agentTools);
        this.agentRuns = new AgentRuns(jdbc, agents, new ModelGateway(modelSettings(config), credentials),
                new AgentToolbox(agentTools, conventions, approvals, agentPrincipals), audit, Duration.ofSeconds(config.intValue(Setting.AGENTS_RUN_LEASE_SECONDS)), broadcast);
        agentRuns.launchOnNotice(feed);
        this.triggers = new Triggers(jdbc, agents,
                Duration.ofSeconds(config.intValue(Setting.SCHEDULER_CRON_MIN_INTERVAL_SECONDS)));
        CronFiring cron = new CronFiring(jdbc, agentRuns);
        drain.subscribe("scheduler.event-triggers", new TriggerFiring(triggers, agentRuns));
        // what runs by itself: each capability that fires on its own (sensors, scheduled jobs) adds its source here
        this.automations = new Automations(List.of(new EventTriggerAutomations(jdbc, agentRuns),
                new SensorAutomations(jdbc)));

        this.runbookTemplates = new RunbookTemplates(jdbc);
        this.runbookRuns = new RunbookRuns(jdbc, runbookTemplates, calls, targets, approvals, new AuditQueries(jdbc),
                broadcast);

        this.topology = Topology.create(jdbc, feed, targets, audit, dispatcher, resultQueries, catalog);
        Duration topologyRefresh = Duration.ofMinutes(config.intValue(Setting.TOPOLOGY_REFRESH_INTERVAL_MINUTES));
        Duration topologyRetention = Duration.ofDays(config.intValue(Setting.TOPOLOGY_HISTORY_RETENTION_DAYS));

        this.sensors = new Sensors(jdbc, catalog, targets, serviceGrants);
        this.sensorRuns = closing.add(new SensorRuns(jdbc, dispatcher, catalog,
                config.intValue(Setting.SENSORS_RESULTS_RETENTION_DAYS), config.intValue(Setting.SENSORS_MAX_CONCURRENT_RUNS)));
        this.dashboards = new Dashboards(jdbc, agents);
        DashboardNotifier notifier = new DashboardNotifier(jdbc, tenants, audit, agentRuns, mailer,
                Duration.ofMinutes(config.intValue(Setting.DASHBOARDS_NOTIFY_SUPPRESSION_MINUTES)));
        sensorRuns.onStateChange(notifier);
        sensors.onDelete(notifier);

        Duration reapEvery = Duration.ofSeconds(config.intValue(Setting.REAPERS_INTERVAL_SECONDS));
        Duration auditStartedAfter = (compositeTimeout.compareTo(callTimeout) > 0 ? compositeTimeout : callTimeout)
                .plusSeconds(config.intValue(Setting.REAPERS_AUDIT_STARTED_MARGIN_SECONDS));
        Duration jobStaleAfter = Duration.ofSeconds(config.intValue(Setting.REAPERS_JOB_STALE_SECONDS));
        // what runs by itself: each capability offers its periodic work; the scheduler runs it once across replicas
        List<PeriodicJob> periodic = new ArrayList<>();
        periodic.addAll(topology.periodicJobs(topologyRefresh, topologyRetention));
        periodic.addAll(sensorRuns.periodicJobs());
        periodic.addAll(eventLog.periodicJobs());
        periodic.addAll(cron.periodicJobs());
        periodic.addAll(broadcast.periodicJobs());
        periodic.addAll(audit.periodicJobs(reapEvery, auditStartedAfter));
        periodic.addAll(auditIntegrity.periodicJobs());
        periodic.addAll(auditStream.periodicJobs());
        periodic.addAll(approvals.periodicJobs());
        periodic.addAll(approvalNotifications.periodicJobs());
        periodic.addAll(handles.periodicJobs());
        periodic.addAll(runs.periodicJobs(reapEvery));
        periodic.addAll(agentRuns.periodicJobs());
        periodic.addAll(memory.periodicJobs());
        periodic.addAll(jobs.periodicJobs(reapEvery, jobStaleAfter));
        periodic.addAll(retrieval.periodicJobs());
        this.periodicJobs = closing.add(new PeriodicJobs(database.dataSource(), periodic));
    }

    /** The SIEM stream's sinks (docs/operations/audit-stream.md); none configured: no stream job. */
    private static AuditStreamer.Settings auditStreamSettings(KernelConfig config) {
        return new AuditStreamer.Settings(config.optional(Setting.AUDIT_STREAM_SYSLOG_ADDRESS).filter(v -> !v.isBlank()),
                config.optional(Setting.AUDIT_STREAM_SYSLOG_CA_FILE).filter(v -> !v.isBlank()).map(Path::of),
                config.get(Setting.AUDIT_STREAM_SYSLOG_FORMAT),
                config.optional(Setting.AUDIT_STREAM_HTTP_URL).filter(v -> !v.isBlank()).map(KernelServices::streamUrl),
                config.optional(Setting.AUDIT_STREAM_HTTP_TOKEN).filter(v -> !v.isBlank()),
                config.intValue(Setting.AUDIT_STREAM_BATCH), hostname(), Duration.ofSeconds(10));
    }

    private static java.net.URI streamUrl(String url) {
        try {
            java.net.URI uri = new java.net.URI(url);
            if (!"https".equals(uri.getScheme()) && !"http".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new java.net.URISyntaxException(url, "not an http(s) URL with a host");
            }
            return uri;
        } catch (java.net.URISyntaxException e) {
            throw new KernelConfig.ConfigException(Setting.AUDIT_STREAM_HTTP_URL.key() + " is not an http(s) URL: "
                    + e.getReason());
        }
    }

    /** The audit seal key; a value that is not one stops the start with what is wrong (never the value). */
    private static java.util.Optional<SealKey> sealKey(KernelConfig config) {
        try {
            return SealKey.of(config.get(Setting.AUDIT_SEAL_KEY));
        } catch (IllegalArgumentException e) {
            throw new KernelConfig.ConfigException(e.getMessage());
        }
    }

    private static String hostname() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "-";
        }
    }

    /** Notification mail; the SMTP password is read through its secret_ref (platform scope) at each send. */
    private Mailer mailer(KernelConfig config) {
        Optional<String> passwordRef = config.optional(Setting.MAIL_SMTP_PASSWORD_REF).filter(v -> !v.isBlank());
        return new Mailer(new Mailer.Settings(config.get(Setting.MAIL_SMTP_HOST), config.intValue(Setting.MAIL_SMTP_PORT),
                config.get(Setting.MAIL_SMTP_TLS), config.get(Setting.MAIL_FROM),
                config.optional(Setting.MAIL_SMTP_USERNAME).filter(v -> !v.isBlank()),
                () -> passwordRef.map(ref -> credentials.resolve(Optional.empty(), ref).field("password")).orElse(""),
                Duration.ofMillis(config.intValue(Setting.MAIL_SMTP_TIMEOUT_MS))), config.outboundTrust().sslContext());
    }

    private static ModelGateway.Settings modelSettings(KernelConfig config) {
        return new ModelGateway.Settings(config.get(Setting.AGENTS_MODEL_PROVIDER), config.optional(Setting.AGENTS_MODEL_BASE_URL),
                config.optional(Setting.AGENTS_MODEL_API_KEY_REF), Map.of("standard", config.get(Setting.AGENTS_MODEL_STANDARD),
                "fast", config.get(Setting.AGENTS_MODEL_FAST), "deep", config.get(Setting.AGENTS_MODEL_DEEP)),
                Duration.ofSeconds(config.intValue(Setting.AGENTS_MODEL_TIMEOUT_SECONDS)), config.outboundTrust().sslContext());
    }

    /** The agent tools of {@code transport}: the MCP endpoint's, or the agent runs' (audited as {@code agent.<tool>}). */
    ToolRegistry tools(SearchLog.Transport transport) {
        return KernelTools.registry(toolServices, transport);
    }

    /** A verifier of tokens from the trusted issuer for one audience (REST and /mcp differ). */
    TokenVerifier tokenVerifier(KernelConfig config, String audience) {
        return new TokenVerifier(issuer, audience, keys, config.list(Setting.IDENTITY_ALGORITHMS),
                Duration.ofSeconds(config.intValue(Setting.IDENTITY_CLOCK_SKEW)));
    }

    private static EgressProxy egressProxy(GuardedSocketFactory sockets) {
        try {
            return new EgressProxy(sockets);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the plugin egress proxy on loopback", e);
        }
    }
}
