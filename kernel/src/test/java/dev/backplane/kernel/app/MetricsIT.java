package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code GET /metrics} after a scripted session: the series an SRE expects are there with bounded labels, and a
 * thousand distinct targets called through the pipeline (and a thousand distinct paths) add no series at all.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MetricsIT extends PerTestTenant {

    private static final String PASSWORD = "metrics-pw-" + UUID.randomUUID();
    private static LoopbackTarget target;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.basicAuthItems(setup, "svc", PASSWORD, x -> { });
        setup.plugin(TestPlugins.connector("met", "1.x").product("met").ranges("*").operations(2).httpProbe(false));
    }

    /**
     * The lag gauges the drain and scheduler alerts fire on read PostgreSQL: a delivery due 90 s ago that no replica
     * takes (its subscriber is unknown) and an execution due 90 s ago that no replica picks (its task is unknown)
     * show as at least 90 s, whichever subscriber's is oldest. First in the class: the gauges are read at most every
     * 15 s, from the first scrape on.
     */
    @Test
    @Order(0)
    void theLagGaugesShowADeliveryAndAnExecutionNobodyTakes() {
        UUID event = UUID.randomUUID();
        kernel.jdbc().update("INSERT INTO events (id, tenant_id, source_id, source_slug, kind, delivery_id, envelope,"
                + " audit_id) VALUES (?, ?, ?, 'metrics-lag', 'generic-json', ?, '{}', ?)", event, tenant,
                UUID.randomUUID(), event.toString(), UUID.randomUUID());
        kernel.jdbc().update("INSERT INTO event_deliveries (subscriber, event_id, tenant_id, next_attempt_at)"
                + " VALUES ('metrics-lag-nobody', ?, ?, now() - interval '90 seconds')", event, tenant);
        // another subscriber's newer delivery, first in subscriber order: the gauge takes the oldest of all of them
        kernel.jdbc().update("INSERT INTO event_deliveries (subscriber, event_id, tenant_id, next_attempt_at)"
                + " VALUES ('metrics-lag-a-nobody', ?, ?, now() - interval '30 seconds')", event, tenant);
        kernel.jdbc().update("INSERT INTO scheduled_tasks (task_name, task_instance, execution_time, picked, version)"
                + " VALUES ('metrics-lag-no-such-task', ?, now() - interval '90 seconds', false, 1)", event.toString());
        try {
            String text = kernel.get("/metrics", null).body();
            assertThat(gauge(text, "svc_events_drain_lag_seconds")).isBetween(90.0, 600.0);
            assertThat(gauge(text, "svc_scheduler_lag_seconds")).isBetween(90.0, 600.0);
        } finally {
            kernel.jdbc().update("DELETE FROM events WHERE id = ?", event); // its delivery goes with it
            kernel.jdbc().update("DELETE FROM scheduled_tasks WHERE task_name = 'metrics-lag-no-such-task'");
        }
    }

    private static double gauge(String scrape, String name) {
        return scrape.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(
                l.substring(name.length() + 1))).findFirst().orElseThrow(() -> new AssertionError(name + " not scraped"));
    }

    @Test
    void aScrapeShowsTheExpectedSeriesAndNoLabelExplosion() {
        kernel.enableConnector(admin, "met-1.x");
        register("m-0");
        assertThat(call("m-0").path("status").asText()).isEqualTo("ok");
        assertThat(kernel.get("/api/v1/targets/no-such-target", operator).status()).isEqualTo(404);
        assertThat(kernel.get("/api/v1/no/such/route", operator).status()).isEqualTo(404);
        assertThat(kernel.post("/api/v1/kb/search", operator, Map.of("query", "metrics")).status()).isEqualTo(200);

        TestKernel.Response scrape = kernel.get("/metrics", null);
        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.header("Content-Type").orElse("")).startsWith("text/plain");
        String text = scrape.body();
        assertThat(text).contains(
                "http_server_requests_seconds_count{method=\"POST\",route=\"/api/v1/operations/call\",status=\"200\"}",
                "http_server_requests_seconds_count{method=\"GET\",route=\"/api/v1/targets/{name}\",status=\"404\"}",
                "http_server_requests_seconds_count{method=\"GET\",route=\"unmatched\",status=\"404\"}",
                "svc_dispatch_calls_seconds_count{connector=\"met-1.x\",op_class=\"read\",status=\"ok\"}",
                "svc_dispatch_stage_seconds_bucket{stage=\"plugin_call\"",
                "svc_dispatch_stage_seconds_count{stage=\"gate\"}",
                "svc_dispatch_stage_seconds_count{stage=\"credential\"}",
                "svc_dispatch_stage_seconds_count{stage=\"audit_intent\"}",
                "svc_dispatch_stage_seconds_count{stage=\"audit_outcome\"}",
                "svc_audit_write_failures_total{stage=\"begin\"} 0.0",
                "svc_retrieval_search_seconds_count{surface=\"kb\",transport=\"rest\"}",
                "svc_approvals_pending ",
                "svc_background_jobs{kind=\"kb_ingest\",state=\"queued\"}",
                "svc_agent_runs{state=\"running\"}",
                "svc_plugins_broken 0.0",
                "svc_events_drain_lag_seconds ",
                "svc_events_ingest_queue 0.0",
                "svc_approval_notifications_pending ",
                "svc_scheduler_lag_seconds ",
                "svc_identity_key_fetch_failures_total{what=\"jwks\"} 0.0",
                "svc_identity_key_fetch_failures_total{what=\"discovery\"} 0.0",
                "hikaricp_connections_active",
                "cache_evictions_total{cache=\"dispatch.schemas\"",
                "cache_gets_total{cache=\"retrieval.lexical.slices\",result=\"hit\"}",
                "jvm_memory_used_bytes");
        assertThat(text).as("no tenant id, principal or target in any label").doesNotContain(tenant.toString(), "m-0",
                "no-such-target", "/api/v1/no/such/route");

        Set<String> before = series(text);
        for (int i = 1; i <= 1000; i++) {
            register("m-" + i);
            assertThat(call("m-" + i).path("status").asText()).isEqualTo("ok");
        }
        for (int i = 0; i < 1000; i++) {
            kernel.get("/api/v1/targets/missing-" + i, operator);
            kernel.get("/api/v1/nowhere-" + i, operator);
        }
        Set<String> after = series(kernel.get("/metrics", null).body());
        Set<String> added = new TreeSet<>(after);
        added.removeAll(before);
        assertThat(added).as("a thousand targets and paths later, the series that appeared")
                .allSatisfy(s -> assertThat(s).doesNotContain("m-", "missing-", "nowhere-"))
                .hasSizeLessThanOrEqualTo(60);
        assertThat(after.size()).as("series in all").isLessThan(before.size() + 61);
    }

    /** /metrics answers without a token: a tenant's own connector ids (tenant data) never show in a label. */
    @Test
    void aTenantsOwnConnectorIdsStayOutOfTheScrape() throws Exception {
        String own = "secretshop" + Math.abs(tenant.hashCode() % 10000);
        var ingest = kernel.send("POST", "/api/v1/connectors/ingest", admin, new com.fasterxml.jackson.databind.ObjectMapper()
                .writeValueAsString(Map.of("product", own, "version", "2.x", "impl", own, "tenant_id", tenant.toString(),
                        "specs", java.util.List.of(Map.of("name", "s.json", "content",
                                dev.backplane.kernel.catalog.SpecIngestIT.spec("Shop", "2.0", 1))))), Map.of());
        assertThat(ingest.status()).as(ingest.body()).isEqualTo(200);
        assertThat(ingest.json().path("scope").asText()).isEqualTo("tenant");
        var t = kernel.post("/api/v1/targets", admin, Map.of("name", own + "-t", "product", own, "host", "127.0.0.1",
                "port", 9));
        assertThat(t.status()).as(t.body()).isEqualTo(201);
        var staged = kernel.post("/api/v1/operations/call", operator, Map.of("connector_id", own + "-2.x",
                "op_id", own + ".things_0.list_things0", "target", own + "-t", "params", Map.of()));
        assertThat(staged.json().path("status").asText()).as("dispatched (and so metered), refused by the gate: "
                + staged.body()).isEqualTo("denied");
        var unknown = kernel.post("/api/v1/operations/call", operator, Map.of("connector_id", "made-up-by-a-caller-1.x",
                "op_id", "x.y.z", "target", own + "-t", "params", Map.of()));
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(404);
        kernel.enableConnector(admin, "met-1.x");
        register("t-0");
        assertThat(call("t-0").path("status").asText()).isEqualTo("ok");

        String text = kernel.get("/metrics", null).body();
        assertThat(text).as("a shared (plugin) connector keeps its id")
                .contains("svc_dispatch_calls_seconds_count{connector=\"met-1.x\",op_class=\"read\",status=\"ok\"}");
        assertThat(text).as("no tenant-scoped or caller-chosen connector id in any label")
                .doesNotContain(own, "made-up-by-a-caller-")
                .contains("svc_dispatch_calls_seconds_count{connector=\"tenant\"");
    }

    @Test
    void theAccessLogAndMetricsSettingsAreCheckedAtStart() {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> KernelConfig.load(
                java.util.Optional.empty(), Map.of("SVC_METRICS_ENABLED", "yes", "SVC_IDENTITY_ISSUER", "http://x"))))
                .hasMessageContaining("metrics.enabled must be true or false");
    }

    private void register(String name) {
        target.register(kernel, admin, name, "met");
    }

    private com.fasterxml.jackson.databind.JsonNode call(String name) {
        var r = kernel.post("/api/v1/operations/call", operator, Map.of("connector_id", "met-1.x",
                "op_id", "met.item0.list", "target", name, "params", Map.of()));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    /** The series of a scrape: every sample line's name and labels, without its value. */
    private static Set<String> series(String scrape) {
        Set<String> out = new TreeSet<>();
        scrape.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).forEach(l -> out.add(l.substring(0,
                l.lastIndexOf(' '))));
        return out;
    }
}
