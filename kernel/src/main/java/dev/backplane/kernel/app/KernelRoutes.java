package dev.backplane.kernel.app;

import dev.backplane.kernel.agents.AgentRoutes;
import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.audit.AuditIntegrityRoutes;
import dev.backplane.kernel.audit.AuditRoutes;
import dev.backplane.kernel.audit.GovernanceAudit;
import dev.backplane.kernel.broadcast.BroadcastRoutes;
import dev.backplane.kernel.catalog.CatalogRoutes;
import dev.backplane.kernel.catalog.IngestRoutes;
import dev.backplane.kernel.console.ConsoleApprovalRoutes;
import dev.backplane.kernel.console.ConsoleAuditRoutes;
import dev.backplane.kernel.console.ConsoleConnectorRoutes;
import dev.backplane.kernel.console.ConsoleEventRoutes;
import dev.backplane.kernel.console.ConsoleHomeRoutes;
import dev.backplane.kernel.console.ConsoleIngestRoutes;
import dev.backplane.kernel.console.ConsoleNotificationRoutes;
import dev.backplane.kernel.console.ConsoleKbRoutes;
import dev.backplane.kernel.console.ConsoleRoutes;
import dev.backplane.kernel.console.ConsoleRunRoutes;
import dev.backplane.kernel.console.ConsoleSessions;
import dev.backplane.kernel.console.ConsoleSettingsRoutes;
import dev.backplane.kernel.console.ConsoleSignInRoutes;
import dev.backplane.kernel.console.ConsoleTopologyRoutes;
import dev.backplane.kernel.console.IdpRevalidation;
import dev.backplane.kernel.console.OidcLogin;
import dev.backplane.kernel.conventions.ConventionRoutes;
import dev.backplane.kernel.dashboards.DashboardRoutes;
import dev.backplane.kernel.dispatch.DispatchRoutes;
import dev.backplane.kernel.docs.DocsRoutes;
import dev.backplane.kernel.events.EventRoutes;
import dev.backplane.kernel.governance.ApprovalRoutes;
import dev.backplane.kernel.governance.GovernanceRoutes;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Authenticator;
import dev.backplane.kernel.http.OpenApiRoutes;
import dev.backplane.kernel.identity.TokenVerifier;
import dev.backplane.kernel.kb.KbRoutes;
import dev.backplane.kernel.mcp.McpRoutes;
import dev.backplane.kernel.notifications.NotificationRoutes;
import dev.backplane.kernel.memory.MemoryRoutes;
import dev.backplane.kernel.quality.RetireChecklist;
import dev.backplane.kernel.quality.RetrievalRoutes;
import dev.backplane.kernel.quality.UsageReport;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.scheduler.AutomationRoutes;
import dev.backplane.kernel.runbooks.RunbookRoutes;
import dev.backplane.kernel.scheduler.TriggerRoutes;
import dev.backplane.kernel.sensors.SensorRoutes;
import dev.backplane.kernel.targets.TargetRoutes;
import dev.backplane.kernel.targets.TargetSecretRoutes;
import dev.backplane.kernel.tenancy.TenancyRoutes;
import dev.backplane.kernel.topology.TopologyRoutes;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The REST and MCP surfaces of one kernel, registered on top of its {@link KernelServices}. */
final class KernelRoutes {

    private KernelRoutes() {
    }

    /** Whether health and metrics have their own listener ({@link Setting#SERVER_MANAGEMENT_PORT}). */
    static boolean hasManagementListener(KernelConfig config) {
        return config.intValue(Setting.SERVER_MANAGEMENT_PORT) >= 0;
    }

    /** Health and metrics: on the management listener when there is one, else on the API listener. */
    static ApiRoutes management(KernelConfig config, KernelServices s, java.util.function.BooleanSupplier draining,
                                java.util.function.BooleanSupplier listening, ApiRoutes api) {
        new HealthRoutes(s.database, draining, listening).register(api);
        if (config.boolValue(Setting.METRICS_ENABLED)) {
            api.publicRoute(io.helidon.http.Method.GET, "/metrics", (req, res) -> {
                res.headers().contentType(io.helidon.http.HttpMediaType.create(
                        "text/plain; version=0.0.4; charset=utf-8"));
                res.send(s.metrics.scrape());
            });
        }
        return api;
    }

    /** @param publicUrl the configured public URL, else the listener's own address (never a request's Host) */
    static ApiRoutes register(KernelConfig config, KernelServices s, java.util.function.Supplier<String> publicUrl,
                              java.util.function.BooleanSupplier draining, java.util.function.BooleanSupplier listening) {
        ApiRoutes api = new ApiRoutes(s.restAuthenticator);
        if (!hasManagementListener(config)) {
            management(config, s, draining, listening, api);
        }
        new InfoRoutes(BuildInfo.load(), config, Kernel.mcpAudience(config), s.retrieval).register(api);
        new OpenApiRoutes().register(api);
        new IdentityRoutes().register(api);
        new FeatureRoutes().register(api);
        new TenancyRoutes(s.tenants).register(api);
        new NotificationRoutes(s.approvalNotifications).register(api);
        new CatalogRoutes(s.catalog, s.implementations.preferences()).register(api);
        new IngestRoutes(s.specIngest).register(api);
        new TargetRoutes(s.targets, s.probes).register(api);
        new GovernanceRoutes(s.agentPrincipals, s.grants, s.serviceGrants).register(api);
        new KbRoutes(s.kb, s.kbIngest).register(api);
        new MemoryRoutes(s.memory).register(api);
        new ConventionRoutes(s.conventions).register(api);
        new RetrievalRoutes(s.eval, new RetireChecklist(s.jdbc, s.eval), new UsageReport(s.jdbc)).register(api);
        new DocsRoutes(s.docs).register(api);
        new DispatchRoutes(s.calls, s.dispatcher, s.resultQueries, s.runs).register(api);
        TokenVerifier mcpTokens = s.tokenVerifier(config, Kernel.mcpAudience(config));
        new McpRoutes(new Authenticator(mcpTokens, s.tenants, "svc", Optional.of(config.get(Setting.IDENTITY_MCP_CLIENT_ID)),
                s.agentPrincipals), mcpTokens, new McpRoutes.Services(s.tools(SearchLog.Transport.MCP), s.kb,
                s.memory, s.conventions::instructions, s.runbookTemplates, FeatureMaturity.index()),
                BuildInfo.load().version(), new McpRoutes.Settings(
                Kernel.mcpAudience(config), s.issuer, config.optional(Setting.MCP_REQUIRED_SCOPE).filter(v -> !v.isBlank()),
                config.list(Setting.MCP_ALLOWED_ORIGINS), publicUrl)).register(api);
        new ApprovalRoutes(s.approvals, s.calls).register(api);
        new AuditIntegrityRoutes(s.auditIntegrity.verifier(), s.auditIntegrity.chain(), s.auditIntegrity.chainer(),
                s.auditIntegrity.archives(), s.audit, s.auditStream::lag).register(api);
        new AuditRoutes(new AuditQueries(s.jdbc), s.audit, caller -> name -> s.targets.auditName(caller.tenantId(), name))
                .register(api);
        new EventRoutes(s.eventSources, s.eventIngest, s.eventLog, s.metrics).register(api);
        new TargetSecretRoutes(s.targets, s.credentials).register(api);
        new AgentRoutes(s.agents, s.agentRuns).register(api);
        new TriggerRoutes(s.triggers).register(api);
        new RunbookRoutes(s.runbookTemplates, s.runbookRuns).register(api);
        new BroadcastRoutes(s.broadcast, s.broadcastHub,
                Duration.ofSeconds(config.intValue(Setting.BROADCAST_HEARTBEAT_SECONDS))).register(api);
        new AutomationRoutes(s.automations).register(api);
        new TopologyRoutes(s.topology).register(api);
        new SensorRoutes(s.sensors).register(api);
        new DashboardRoutes(s.dashboards).register(api);
        api.recordMutations(new GovernanceAudit(s.audit), GovernanceAudit.EXEMPT);
        return api;
    }

    /** The console (/ui): HTML pages on the same services, authenticator and audit trail as REST. */
    static ConsoleRoutes console(KernelConfig config, KernelServices s, java.util.function.Supplier<String> publicUrl) {
        String clientId = config.get(Setting.CONSOLE_CLIENT_ID);
        OidcLogin oidc = new OidcLogin(s.issuer, clientId, s.tokenVerifier(config, clientId),
                config.outboundTrust().sslContext());
        ConsoleSessions sessions = ConsoleSessions.create(s.jdbc,
                Duration.ofMinutes(config.intValue(Setting.CONSOLE_SESSION_TTL_MINUTES)),
                Duration.ofSeconds(config.intValue(Setting.CONSOLE_REVALIDATE_SECONDS)),
                new IdpRevalidation(oidc, s.restAuthenticator));
        return new ConsoleRoutes(sessions, new GovernanceAudit(s.audit), s.specIngest.maxRequestBytes(),
                s.tenants::displayName, List.of(
                new ConsoleSignInRoutes(sessions, oidc, s.restAuthenticator, s.tenants, publicUrl),
                new ConsoleKbRoutes(s.kb, s.kbIngest),
                new ConsoleIngestRoutes(s.specIngest),
                new ConsoleHomeRoutes(s.approvals, s.dashboards, s.automations, s.broadcast, s.broadcastHub,
                        Duration.ofSeconds(config.intValue(Setting.BROADCAST_HEARTBEAT_SECONDS)), new AuditQueries(s.jdbc)),
                new ConsoleApprovalRoutes(s.approvals, s.calls, new AuditQueries(s.jdbc)),
                new ConsoleRunRoutes(s.agentRuns, s.runbookRuns),
                new ConsoleNotificationRoutes(s.approvalNotifications),
                new ConsoleSettingsRoutes(s.tenants),
                new ConsoleTopologyRoutes(s.topology),
                new ConsoleEventRoutes(s.eventSources, s.eventLog, s.triggers, publicUrl),
                new ConsoleAuditRoutes(new AuditQueries(s.jdbc), s.audit,
                        (caller, name) -> s.targets.auditName(caller.tenantId(), name)),
                new ConsoleConnectorRoutes(s.catalog, new AuditQueries(s.jdbc))));
    }
}
