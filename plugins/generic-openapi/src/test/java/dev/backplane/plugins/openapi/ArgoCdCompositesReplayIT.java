package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Argo CD's composite operations (sync and wait, rollback and wait) and the index-driven product probes of
 * Harbor and Argo CD, through a real kernel against a loopback vendor whose every answer and received body is
 * checked against the vendor spec ({@link SpecContract}). The replayed applications move through their states
 * one poll at a time: each GET after a sync or rollback is the next step of the application's script.
 */
class ArgoCdCompositesReplayIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ARGOCD = RegistryAndGitOpsReplay.ARGOCD;
    private static final String HARBOR = RegistryAndGitOpsReplay.HARBOR;
    private static final String SYNC_AND_WAIT = "argocd.applicationservice.sync_and_wait";
    private static final String ROLLBACK_AND_WAIT = "argocd.applicationservice.rollback_and_wait";
    private static final String PASSWORD = "vendor-pw-" + UUID.randomUUID();
    private static final String ARGO_TOKEN = "argo-session-" + UUID.randomUUID();
    private static final String APPS = "/api/v1/applications/";
    /** GETs of each application since its last sync or rollback, and which of the two that was. */
    private static final Map<String, AtomicInteger> polls = new ConcurrentHashMap<>();
    private static final Map<String, String> lastWrite = new ConcurrentHashMap<>();
    private static RegistryAndGitOpsReplay fixture;
    private static ReplayVendor vendor;
    private static ReplayKernel replay;

    @BeforeAll
    static void start() throws Exception {
        fixture = RegistryAndGitOpsReplay.start(ArgoCdCompositesReplayIT::answer);
        vendor = fixture.vendor();
        replay = fixture.replay();
        replay.target("gitops", "argocd", vendor, Map.of("username", "admin", "password", PASSWORD), Map.of());
        replay.enableReads(ARGOCD);
        replay.enableReads(HARBOR);
        replay.enableOperation(ARGOCD, SYNC_AND_WAIT);
        replay.enableOperation(ARGOCD, ROLLBACK_AND_WAIT);
    }

    @AfterAll
    static void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    // ---- the replayed Argo CD ----

    /** An application document ({@code v1alpha1Application}); {@code pending} sets the in-flight operation. */
    private static String app(String name, boolean pending, String phase, String sync, String health, String message) {
        String operation = pending ? "\"operation\": {\"sync\": {\"revision\": \"HEAD\"}, \"initiatedBy\": "
                + "{\"username\": \"admin\"}}, " : "";
        return """
                {"metadata": {"name": "%s", "namespace": "argocd"}, %s
                 "spec": {"project": "default", "source": {"repoURL": "https://github.com/argoproj/argocd-example-apps",
                   "path": "guestbook", "targetRevision": "HEAD"},
                   "destination": {"server": "https://kubernetes.default.svc", "namespace": "default"}},
                 "status": {"sync": {"status": "%s", "revision": "4f7a2c1"},
                   "health": {"status": "%s", "message": %s},
                   "operationState": {"phase": "%s", "message": %s, "startedAt": "2026-11-24T04:00:00Z"},
                   "history": [{"id": 1, "revision": "1a2b3c4", "deployedAt": "2026-11-20T10:00:00Z"},
                               {"id": 2, "revision": "4f7a2c1", "deployedAt": "2026-11-22T10:00:00Z"}]}}"""
                .formatted(name, operation, sync, health, quote(phase.equals("Succeeded") ? "" : message), phase,
                        quote(message));
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The application as the n-th GET after its last write sees it (n from 1). */
    private static String script(String name, String write, int n) {
        if (write == null) {
            return app(name, false, "Succeeded", "Synced", "Healthy", "successfully synced (all tasks run)");
        }
        return switch (name + "/" + write) {
            case "guestbook/sync" -> n == 1 ? app(name, true, "Running", "OutOfSync", "Healthy", "one or more tasks are running")
                    : n == 2 ? app(name, false, "Succeeded", "Synced", "Progressing", "successfully synced")
                    : app(name, false, "Succeeded", "Synced", "Healthy", "successfully synced (all tasks run)");
            case "broken/sync" -> app(name, false, "Succeeded", "Synced", "Degraded",
                    "Deployment \"broken\" exceeded its progress deadline");
            case "stuck/sync" -> app(name, false, "Succeeded", "Synced", "Progressing", "waiting for rollout");
            case "helm-guestbook/rollback" -> app(name, false, "Succeeded", "OutOfSync", "Healthy",
                    "rollback to 1a2b3c4 succeeded");
            default -> throw new AssertionError("no script for " + name + " after " + write);
        };
    }

    private static void answer(ReplayVendor.Exchange x) throws Exception {
        if (x.path().startsWith("/api/v2.0/")) {
            if (RegistryAndGitOpsReplay.refusedByHarbor(x, PASSWORD)) {
                return;
            }
            if (x.route().equals("GET /api/v2.0/systeminfo")) {
                x.reply(200, fixture.harbor().response("GET", "/systeminfo", """
                        {"harbor_version": "v2.13.1-1234abcd", "auth_mode": "db_auth", "read_only": false}"""));
            } else {
                x.reply(404, "{\"errors\": [{\"code\": \"NOT_FOUND\", \"message\": \"no route\"}]}");
            }
            return;
        }
        if (fixture.answeredByArgoSession(x, PASSWORD, ARGO_TOKEN)) {
            return;
        }
        if (x.route().equals("GET /api/version")) {
            x.reply(200, fixture.argo().response("GET", "/api/version", """
                    {"Version": "v3.1.8+becb020", "BuildDate": "2026-10-01T00:00:00Z", "GoVersion": "go1.24.6"}"""));
            return;
        }
        String rest = x.path().startsWith(APPS) ? x.path().substring(APPS.length()) : "";
        String[] parts = rest.split("/");
        String name = parts[0];
        if (x.method().equals("GET") && parts.length == 1 && !name.isEmpty()) {
            int n = polls.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
            x.reply(200, fixture.argo().response("GET", "/api/v1/applications/{name}", script(name, lastWrite.get(name), n)));
        } else if (x.method().equals("POST") && parts.length == 2 && List.of("sync", "rollback").contains(parts[1])) {
            fixture.argo().request("POST", "/api/v1/applications/{name}/" + parts[1], x.body());
            x.recordWrite("argocd " + name + " " + parts[1]);
            lastWrite.put(name, parts[1]);
            polls.put(name, new AtomicInteger());
            x.reply(200, fixture.argo().response("POST", "/api/v1/applications/{name}/" + parts[1],
                    app(name, true, "Running", "OutOfSync", "Progressing", "")));
        } else {
            x.reply(404, "{\"error\": \"not found\", \"code\": 5}");
        }
    }

    // ---- the tests ----

    private static List<String> writesOf(String app) {
        return vendor.writes().stream().filter(w -> w.startsWith("argocd " + app + " ")).toList();
    }

    /** Calls as the operator; the composite parks, nothing is sent, a second tenant_admin releases it. */
    private static JsonNode released(String opId, Map<String, Object> params, String app) throws Exception {
        JsonNode parked = replay.call(replay.operator(), ARGOCD, opId, "gitops", params);
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        assertThat(writesOf(app)).as("nothing sent while parked").isEmpty();
        return replay.approve(parked).path("result");
    }

    private static JsonNode children(String parentAuditId) {
        var r = replay.kernel().get("/api/v1/audit?parent_audit_id=" + parentAuditId + "&limit=100", replay.admin());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).doesNotContain(PASSWORD).doesNotContain(ARGO_TOKEN);
        return r.json().path("rows");
    }

    @Test
    void syncAndWaitParksThenPollsUntilSyncedAndHealthyWithEveryChildRequestAuditedUnderIt() throws Exception {
        JsonNode result = released(SYNC_AND_WAIT, Map.of("name", "guestbook", "revision", "HEAD", "prune", true),
                "guestbook");
        assertThat(result.path("status").asText()).as(result.toString()).isEqualTo("ok");
        JsonNode doc = result.path("result");
        assertThat(doc.path("sync_status").asText()).isEqualTo("Synced");
        assertThat(doc.path("health_status").asText()).isEqualTo("Healthy");
        assertThat(doc.path("operation_phase").asText()).isEqualTo("Succeeded");
        assertThat(doc.path("revision").asText()).isEqualTo("4f7a2c1");
        assertThat(doc.path("polls").asInt()).as("OutOfSync, then Progressing, then Healthy").isEqualTo(3);
        assertThat(writesOf("guestbook")).singleElement().asString().contains("\"prune\":true")
                .contains("\"revision\":\"HEAD\"");

        String parent = result.path("extras").path("audit_id").asText();
        JsonNode rows = children(parent);
        assertThat(rows.size()).as("one row per request: the sync and each poll").isEqualTo(1 + polls.get("guestbook").get());
        for (JsonNode row : rows) {
            assertThat(row.path("parent_audit_id").asText()).isEqualTo(parent);
            assertThat(row.path("result_status").asText()).isEqualTo("ok");
            assertThat(row.path("work_ref").asText()).isEqualTo("CHG-9");
            assertThat(row.path("target").asText()).isEqualTo("gitops");
        }
        assertThat(rows.findValuesAsText("op_id")).containsOnly("argocd.applicationservice.application_service_sync",
                "argocd.applicationservice.application_service_get");
        assertThat(rows.findValuesAsText("op_class")).containsOnly("write", "read");
        var cli = replay.cli().run("audit", "query", "--parent-audit-id", parent, "--json");
        assertThat(cli.exitCode()).as(cli.toString()).isZero();
        assertThat(cli.out()).contains("application_service_sync").contains("application_service_get");
        assertThat(replay.auditOf("gitops")).contains(SYNC_AND_WAIT);
    }

    @Test
    void aDegradedApplicationIsAnErrorCarryingItsMessageWhenTheCliReleasesIt() throws Exception {
        JsonNode parked = replay.call(replay.operator(), ARGOCD, SYNC_AND_WAIT, "gitops", Map.of("name", "broken"));
        var approved = replay.cli().run("approvals", "approve", parked.path("extras").path("approval_request_id")
                .asText(), "--json");
        assertThat(approved.exitCode()).as(approved.toString()).isEqualTo(1);
        JsonNode result = JSON.readTree(approved.out()).path("result");
        assertThat(result.path("status").asText()).as(result.toString()).isEqualTo("error");
        assertThat(errorCode(result)).isEqualTo("connector_error");
        assertThat(result.path("error").asText()).contains("Degraded").contains("exceeded its progress deadline");
    }

    @Test
    void aNeverHealthyApplicationTimesOutNamingItsLastState() throws Exception {
        long t0 = System.nanoTime();
        JsonNode result = released(SYNC_AND_WAIT, Map.of("name", "stuck", "timeout_seconds", 10), "stuck");
        assertThat(errorCode(result)).as(result.toString()).isEqualTo("connector_timeout");
        assertThat(result.path("error").asText()).contains("health Progressing");
        assertThat((System.nanoTime() - t0) / 1_000_000_000).as("bounded by timeout_seconds").isLessThan(15);
    }

    @Test
    void aTimeoutOutsideTenToEighteenHundredSecondsIsInvalidParamsBeforeAnyApproval() throws Exception {
        for (int t : List.of(9, 1801)) {
            JsonNode r = replay.call(replay.operator(), ARGOCD, SYNC_AND_WAIT, "gitops",
                    Map.of("name", "nowhere", "timeout_seconds", t));
            assertThat(errorCode(r)).as(r.toString()).isEqualTo("invalid_params");
        }
        assertThat(polls).doesNotContainKey("nowhere");
    }

    @Test
    void rollbackToAnUnknownHistoryIdIsInvalidParamsAndNothingIsRolledBack() throws Exception {
        JsonNode result = released(ROLLBACK_AND_WAIT, Map.of("name", "helm-guestbook", "id", 7), "helm-guestbook");
        assertThat(errorCode(result)).as(result.toString()).isEqualTo("invalid_params");
        assertThat(result.path("error").asText()).contains("[1, 2]");
        assertThat(writesOf("helm-guestbook")).isEmpty();

        JsonNode rolled = released(ROLLBACK_AND_WAIT, Map.of("name", "helm-guestbook", "id", 1), "helm-guestbook");
        assertThat(rolled.path("status").asText()).as(rolled.toString()).isEqualTo("ok");
        assertThat(rolled.path("result").path("health_status").asText()).isEqualTo("Healthy");
        assertThat(writesOf("helm-guestbook")).singleElement().asString().contains("\"id\":1");
    }

    @Test
    void aCompositeCannotBePreviewed() throws Exception {
        var r = replay.kernel().send("POST", "/api/v1/operations/preview", replay.operator(), JSON.writeValueAsString(
                Map.of("connector_id", ARGOCD, "op_id", SYNC_AND_WAIT, "target", "gitops", "params",
                        Map.of("name", "guestbook"))), Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().path("status").asText()).isEqualTo("unavailable");
    }

    @Test
    void probesReadTheProductVersionFromHarborAndArgoCdVersionRoutes() throws Exception {
        replay.target("reg-probe", "harbor", vendor, Map.of("username", "admin", "password", PASSWORD), Map.of());
        replay.target("gitops-probe", "argocd", vendor, Map.of("username", "admin", "password", PASSWORD), Map.of());
        for (String[] t : List.of(new String[] {"reg-probe", "harbor", "v2.13.1-1234abcd", "GET /api/v2.0/systeminfo"},
                new String[] {"gitops-probe", "argocd", "v3.1.8+becb020", "GET /api/version"})) {
            var r = replay.kernel().send("POST", "/api/v1/targets/" + t[0] + "/probe", replay.operator(), "{}", Map.of());
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            JsonNode f = r.json().path("fingerprint");
            assertThat(f.path("product").asText()).as(r.body()).isEqualTo(t[1]);
            assertThat(f.path("version").asText()).isEqualTo(t[2]);
            assertThat(f.path("probe_method").asText()).isEqualTo(t[3]);
            assertThat(f.path("reachable").asBoolean()).isTrue();
            assertThat(r.body()).doesNotContain(PASSWORD).doesNotContain(ARGO_TOKEN);
        }
        var described = replay.cli().run("targets", "describe", "gitops-probe", "--json");
        assertThat(described.out()).as(described.toString()).contains("v3.1.8+becb020");
    }
}
