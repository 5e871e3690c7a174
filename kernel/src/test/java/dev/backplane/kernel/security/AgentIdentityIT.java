package dev.backplane.kernel.security;

import static dev.backplane.kernel.testing.ScriptedModel.text;
import static dev.backplane.kernel.testing.ScriptedModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TestPlugins;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Security review 3, S1, S2, S3 and S16, end to end on a real kernel: who an agent run is (a subject no
 * token can carry, never a person's), which grants bind it, which routes agents may not call (taken from
 * the kernel's route table, so a new governance route is covered without being listed here), who may not
 * approve what a run parked (four-eyes across runs), and a service principal's parked call re-checked
 * against its grants when released.
 */
class AgentIdentityIT extends PerTestTenant {

    private static final String PASSWORD = "ident-pw-" + UUID.randomUUID();
    private static final String SOURCE_SECRET = "ident-source-secret-0123456789";
    private static final List<String> HITS = new CopyOnWriteArrayList<>();
    private static LoopbackTarget target;
    private static ScriptedModel model;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.basicAuthItems(setup, "svc", PASSWORD, LoopbackTarget.recordInto(HITS));
        model = ScriptedModel.forKernel(setup);
        setup.plugin(TestPlugins.connector("idn", "1.x").product("idn").ranges("*").operations(6).httpProbe(false));
    }

    @BeforeEach
    void fresh() {
        model.reset();
    }

    private void targetAndConnector(String name) {
        target.register(kernel, admin, name, "idn");
        kernel.enableConnector(admin, "idn-1.x");
    }

    private void principal(String token, Map<String, Object> body) {
        var r = kernel.post("/api/v1/agent-principals", token, body);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    private void definition(String token, String agent, String principal, Map<String, Object> toolset) {
        var r = kernel.post("/api/v1/agents", token, Map.of("name", agent, "identity_ref", principal,
                "system_prompt", "You do as asked.", "toolset", toolset));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    private JsonNode run(String token, String agent, Map<String, Object> body, int status) {
        var r = kernel.post("/api/v1/agents/" + agent + "/runs", token, body);
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        return r.json();
    }

    private JsonNode awaitStatus(String handle, String... statuses) throws InterruptedException {
        return kernel.awaitAgentRun(operator, handle, Duration.ofSeconds(40), statuses);
    }

    private static Map<String, Object> call(String op, String target, Map<String, Object> params) {
        return Map.of("connector_id", "idn-1.x", "op_id", op, "target", target, "params", params);
    }

    private void requireApproval(String op) {
        var r = kernel.patch("/api/v1/connectors/idn-1.x/operations/" + op, admin, Map.of("is_enabled", true,
                "requires_approval", true, "safety_level", "caution"));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
    }

    private String agentToken(String clientId, String sub, String role) {
        return issuer.token(c -> c.subject(sub).claim("azp", clientId).claim("tenant_id", tenant.toString())
                .claim("tenant_role", role));
    }

    private String serviceToken(String sub, String role) {
        return issuer.token(c -> c.subject(sub).claim("preferred_username", "service-account-" + sub)
                .claim("tenant_id", tenant.toString()).claim("tenant_role", role));
    }

    private static String error(dev.backplane.kernel.testing.TestKernel.Response r) {
        return r.json().path("error").asText();
    }

    /**
     * S1: a tenant_admin names an agent principal after a person's sub. The run still acts as
     * {@code svc-agent:<name>}: it does not find that person's private memory, cannot plant cross-tenant memory,
     * and every audit row of the run names the agent subject, never the person.
     */
    @Test
    void aRunNeverActsAsAPersonWhateverItsPrincipalIsNamed() throws Exception {
        String victim = "op-" + tenant; // the operator's sub, as approvals and audit rows show it
        String secret = "victim-secret-" + UUID.randomUUID();
        for (String scope : List.of("user", "user-tenant")) {
            var w = kernel.post("/api/v1/memory", operator, Map.of("scope", scope, "slug", "pw-" + scope,
                    "body", "the root password is " + secret));
            assertThat(w.status()).as(w.body()).isEqualTo(201);
        }
        targetAndConnector("t-mimic");
        principal(admin, Map.of("name", victim));
        definition(admin, "mimic", victim, Map.of("add_to_memory", true, "call_operation", true));
        model.then(toolCall("search_memory", Map.of("query", "root password")),
                toolCall("add_to_memory", Map.of("scope", "user", "body", "planted " + secret)),
                toolCall("call_operation", call("idn.item0.list", "t-mimic", Map.of("count", 1))),
                text("done"));
        JsonNode run = run(admin, "mimic", Map.of("input", "find the root password"), 200);
        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");

        assertThat(ScriptedModel.transcript(model.requests().get(1))).as("the search found nothing of the person's")
                .doesNotContain(secret);
        assertThat(ScriptedModel.transcript(model.requests().get(2))).as("the cross-tenant scope is refused to a run")
                .contains("invalid_scope");
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM memory_entries WHERE body LIKE ?", rs -> rs.getLong(1),
                "planted %").orElseThrow()).isZero();
        List<String> principals = kernel.jdbc().query("SELECT DISTINCT principal FROM audit_rows WHERE session_id = ?",
                rs -> rs.getString(1), UUID.fromString(run.path("handle").asText()));
        assertThat(principals).as("audited as the agent, never as the person").containsExactly("svc-agent:" + victim);
        assertThat(kernel.get("/api/v1/memory?scope=user-tenant", operator).body()).as("the person's memory is intact")
                .contains(secret);
    }

    /** S1: no token may carry a subject of the backplane's own namespace, so none can act as a run or a sensor. */
    @Test
    void aTokenCannotCarryTheBackplanesOwnSubjects() {
        for (String sub : List.of("svc-agent:mimic", "svc-sensor:" + UUID.randomUUID(), "svc-system:topology-discovery",
                "svc-trigger:x")) {
            var r = kernel.get("/api/v1/agent-principals", issuer.token(sub, tenant, "tenant_admin"));
            assertThat(r.status()).as(sub).isEqualTo(401);
            assertThat(r.body()).contains("reserved namespace");
        }
        assertThat(kernel.get("/api/v1/agent-principals", issuer.token("svc-agentless", tenant, "operator")).status())
                .as("only the svc-<word>: form is reserved").isEqualTo(200);
        var owner = kernel.post("/api/v1/agent-principals", admin, Map.of("name", "p-" + tenant,
                "owner_sub", "svc-agent:other"));
        assertThat(owner.status()).isEqualTo(422);
        assertThat(owner.json().path("extras").path("field").asText()).isEqualTo("owner_sub");
    }

    /**
     * S1 (corollary): grants on {@code svc-agent:<name>} bind the principal in its runs and with its own token; a
     * grant on the token's sub still binds the token.
     */
    @Test
    void aGrantOnTheRunSubjectBindsTheAgentsRunsAndItsToken() throws Exception {
        targetAndConnector("t-bound");
        String name = "bound-bot";
        principal(admin, Map.of("name", name));
        definition(admin, "bound", name, Map.of("call_operation", true));
        var grant = kernel.post("/api/v1/agent-grants", admin, Map.of("principal", "svc-agent:" + name,
                "op", "idn.item0.*", "verdict", "deny"));
        assertThat(grant.status()).as(grant.body()).isEqualTo(201);

        model.then(toolCall("call_operation", call("idn.item0.list", "t-bound", Map.of("count", 1))), text("done"));
        int hits = HITS.size();
        JsonNode run = run(admin, "bound", Map.of("input", "list"), 200);
        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");
        assertThat(ScriptedModel.transcript(model.requests().get(1))).as("the deny grant bound the run")
                .contains("denied_by_grant")
                .as("a tool result reaches the model inside a block whose end it cannot know")
                .containsPattern("<<<TOOL RESULT [0-9a-f]{32}\n\\{[^<>]*denied_by_grant[^<>]*\\}\nTOOL RESULT [0-9a-f]{32}>>>");
        assertThat(HITS.size()).as("the target was not called").isEqualTo(hits);

        String token = agentToken(name, "uuid-" + UUID.randomUUID(), "operator");
        var direct = kernel.post("/api/v1/operations/call", token, call("idn.item0.list", "t-bound", Map.of("count", 1)));
        assertThat(direct.body()).as("the same grant binds the agent's own token").contains("denied_by_grant");
        var other = kernel.post("/api/v1/operations/call", token, call("idn.item1.get", "t-bound", Map.of("name", "a")));
        assertThat(other.json().path("status").asText()).as(other.body()).isEqualTo("ok");
    }

    /**
     * S3: four-eyes across agent runs. The person who started the run, the author of its definition and the
     * principal's registrant (whoever they named as owner) may not approve what the run parked; a third person may.
     */
    @Test
    void theRunsStarterTheDefinitionsAuthorAndThePrincipalsRegistrantAreNotItsApprovers() throws Exception {
        targetAndConnector("t-4e");
        requireApproval("idn.item5.delete");
        principal(admin, Map.of("name", "4e-bot", "owner_sub", "someone-else-" + tenant));
        assertThat(kernel.get("/api/v1/agent-principals", operator).json().get(0).path("registered_by").asText())
                .isEqualTo("admin-" + tenant);
        String author = issuer.token("author-" + tenant, tenant, "tenant_admin");
        definition(author, "4e", "4e-bot", Map.of("call_operation", true));
        model.then(toolCall("call_operation", call("idn.item5.delete", "t-4e", Map.of("name", "old"))), text("done"));
        JsonNode started = run(admin2, "4e", Map.of("input", "delete old", "async", true), 202);
        String handle = started.path("handle").asText();
        String approval = awaitStatus(handle, "awaiting_approval").path("approval_request_id").asText();

        Map<String, String> refused = new LinkedHashMap<>();
        refused.put(admin2, "who started agent run");
        refused.put(author, "the author of agent definition '4e'");
        refused.put(admin, "who registered agent principal '4e-bot'");
        refused.put(issuer.token("someone-else-" + tenant, tenant, "tenant_admin"), "the owner of agent principal");
        for (var e : refused.entrySet()) {
            var r = kernel.post("/api/v1/approvals/" + approval + "/approve", e.getKey(), Map.of());
            assertThat(r.status()).as(r.body()).isEqualTo(403);
            assertThat(error(r)).isEqualTo("four_eyes");
            assertThat(r.json().path("message").asText()).contains(e.getValue());
        }
        assertThat(HITS).doesNotContain("DELETE /items/old");
        var third = kernel.post("/api/v1/approvals/" + approval + "/approve",
                issuer.token("third-" + tenant, tenant, "tenant_admin"), Map.of());
        assertThat(third.status()).as(third.body()).isEqualTo(200);
        assertThat(awaitStatus(handle, "succeeded", "failed").path("status").asText()).isEqualTo("succeeded");
        assertThat(HITS).contains("DELETE /items/old");
    }

    /** S3: whoever wrote the trigger that started a run may not approve what the run parked. */
    @Test
    void theTriggersAuthorIsNotTheApproverOfWhatItsRunParked() throws Exception {
        targetAndConnector("t-trg");
        requireApproval("idn.item5.delete");
        principal(admin2, Map.of("name", "trg-bot"));
        definition(admin2, "trg", "trg-bot", Map.of("call_operation", true));
        var source = kernel.post("/api/v1/event-sources", admin, Map.of("name", "src-" + tenant, "kind", "generic-json",
                "auth_strategy", "static-header", "secret", SOURCE_SECRET));
        assertThat(source.status()).as(source.body()).isEqualTo(201);
        String slug = source.json().path("slug").asText();
        var trigger = kernel.post("/api/v1/scheduler/triggers", admin, Map.of("kind", "event", "agent_definition", "trg",
                "event_filter", Map.of("status", "firing")));
        assertThat(trigger.status()).as(trigger.body()).isEqualTo(201);
        model.then(toolCall("call_operation", call("idn.item5.delete", "t-trg", Map.of("name", "old-trg"))), text("done"));
        HttpRequest ingest = HttpRequest.newBuilder(URI.create(kernel.url() + "/api/v1/events/ingest/" + slug))
                .header("Content-Type", "application/json").header("X-Svc-Token", SOURCE_SECRET)
                .POST(HttpRequest.BodyPublishers.ofString("{\"status\": \"firing\"}")).build();
        assertThat(HttpClient.newHttpClient().send(ingest, HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(200);
        String handle = null;
        Instant deadline = Instant.now().plus(Duration.ofSeconds(40));
        while (handle == null && Instant.now().isBefore(deadline)) {
            for (JsonNode r : kernel.get("/api/v1/agent-runs?agent_name=trg", operator).json().path("runs")) {
                handle = r.path("handle").asText();
            }
            Thread.sleep(100);
        }
        assertThat(handle).as("the event started a run").isNotNull();
        String approval = awaitStatus(handle, "awaiting_approval").path("approval_request_id").asText();
        var byAuthor = kernel.post("/api/v1/approvals/" + approval + "/approve", admin, Map.of());
        assertThat(byAuthor.status()).as(byAuthor.body()).isEqualTo(403);
        assertThat(byAuthor.json().path("message").asText()).contains("the author of the trigger");
        var breakGlass = kernel.post("/api/v1/approvals/" + approval + "/approve", admin, Map.of("break_glass", true,
                "reason", "incident 42: nobody else is awake"));
        assertThat(breakGlass.status()).as("the audited break-glass still exists").isEqualTo(200);
        assertThat(awaitStatus(handle, "succeeded", "failed").path("status").asText()).isEqualTo("succeeded");
    }

    /**
     * S2, from the route table: every route declared {@code NO_AGENTS} refuses an agent principal whose token
     * claims tenant_admin with {@code 403 human_required} before its handler runs, and admits a person and a
     * service principal (the demo's set-up pipeline) past that check. The writes agents may make are named here,
     * so a new one open to agents is a decision someone takes in review, not an accident.
     */
    @Test
    void agentsAreRefusedOnEveryGovernanceWriteOfTheRouteTable() {
        String name = "gov-bot-" + tenant;
        principal(admin, Map.of("name", name));
        String agent = agentToken(name, "uuid-" + UUID.randomUUID(), "tenant_admin");
        String service = serviceToken("pipe-" + tenant, "tenant_admin");
        Set<String> openToAgents = new TreeSet<>();
        List<String> refused = new ArrayList<>();
        for (ApiRoutes.Route route : kernel.kernel().api().routes()) {
            if (route.method().equals("GET") || route.role().isEmpty()) {
                continue;
            }
            String key = route.method() + " " + route.path();
            if (route.callers() == ApiRoutes.Callers.ANY) {
                openToAgents.add(key);
                continue;
            }
            String path = route.path().replaceAll("\\{[^}]+}", UUID.randomUUID().toString());
            var byAgent = kernel.send(route.method(), path, agent, "{}", Map.of());
            assertThat(byAgent.status()).as(key + ": " + byAgent.body()).isEqualTo(403);
            assertThat(error(byAgent)).as(key).isEqualTo("human_required");
            assertThat(byAgent.json().path("extras").path("principal_kind").asText()).isEqualTo("agent");
            for (String person : List.of(admin, service)) {
                var r = kernel.send(route.method(), path, person, "{}", Map.of());
                if (error(r).equals("human_required")) {
                    assertThat(person).as(key + " refuses only services (it decides on agents' power)").isEqualTo(service);
                }
            }
            refused.add(key);
        }
        assertThat(refused).as("the governance writes S2 named").contains(
                "PATCH /api/v1/connectors/{connector_id}/operations/{op_id}",
                "POST /api/v1/connectors/{connector_id}/enable",
                "POST /api/v1/connectors/{connector_id}/enable-reads",
                "POST /api/v1/agents", "PATCH /api/v1/agents/{name}", "DELETE /api/v1/agents/{name}",
                "POST /api/v1/agents/{name}/runs", "POST /api/v1/agents/{name}/run-events",
                "POST /api/v1/scheduler/triggers", "POST /api/v1/conventions", "POST /api/v1/targets",
                "PUT /api/v1/targets/{name}/secret", "POST /api/v1/approvals/{id}/approve", "POST /api/v1/agent-grants");
        assertThat(openToAgents).as("the writes agents may make").containsExactlyInAnyOrder(
                "POST /api/v1/kb", "POST /api/v1/kb/search", "POST /api/v1/memory",
                "POST /api/v1/memory/{scope}/{slug}/promote",
                "POST /api/v1/operations/call", "POST /api/v1/operations/preview", "POST /api/v1/operations/result-query",
                "POST /api/v1/operations/runs/{handle}/cancel", "POST /api/v1/agent-runs/{handle}/cancel",
                "POST /api/v1/agent-principals/{name}/revoke", "POST /api/v1/broadcast/announcements",
                "POST /api/v1/conventions/search", "POST /api/v1/docs/search", "POST /api/v1/docs/ask",
                "POST /api/v1/docs/collections/{key}/probe", "POST /api/v1/retrieval/eval",
                "POST /api/v1/targets/discover", "POST /api/v1/targets/{name}/probe", "POST /api/v1/topology/edges/bulk",
                "POST /api/v1/runbooks/runs", "POST /api/v1/runbooks/runs/{id}/next", "POST /api/v1/runbooks/runs/{id}/abort");
    }

    /** S2: a run acts as its definition's principal, so neither an agent nor a service principal may start one. */
    @Test
    void neitherAnAgentNorAServicePrincipalMayStartARun() {
        principal(admin, Map.of("name", "runner-bot"));
        definition(admin, "runner", "runner-bot", Map.of());
        String agent = agentToken("runner-bot", "uuid-" + UUID.randomUUID(), "tenant_admin");
        for (String token : List.of(agent, serviceToken("pipe-" + tenant, "operator"))) {
            var r = kernel.post("/api/v1/agents/runner/runs", token, Map.of("input", "scale web to 0"));
            assertThat(r.status()).as(r.body()).isEqualTo(403);
            assertThat(error(r)).isEqualTo("human_required");
        }
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM agent_runs WHERE tenant_id = ?", rs -> rs.getLong(1),
                tenant).orElseThrow()).isZero();
    }

    /** S16: a service principal's parked call does not run once its exact service grant was revoked. */
    @Test
    void aServicePrincipalsParkedCallIsCheckedAgainstItsGrantsWhenReleased() throws Exception {
        targetAndConnector("t-svc");
        requireApproval("idn.item3.list");
        String sub = "pipe-" + tenant;
        String target = kernel.get("/api/v1/targets/t-svc", admin).json().path("id").asText();
        var grant = kernel.post("/api/v1/service-principals/grants", admin, Map.of("principal", sub,
                "connector_id", "idn-1.x", "op_id", "idn.item3.list", "reason", "nightly clean-up", "target", target));
        assertThat(grant.status()).as(grant.body()).isEqualTo(201);
        String token = serviceToken(sub, "operator");
        var parked = kernel.post("/api/v1/operations/call", token, call("idn.item3.list", "t-svc", Map.of("count", 2)));
        assertThat(parked.json().path("status").asText()).as(parked.body()).isEqualTo("awaiting_approval");
        String approval = parked.json().path("extras").path("approval_request_id").asText();
        var revoked = kernel.post("/api/v1/service-principals/grants/" + grant.json().path("id").asText() + "/revoke",
                admin, Map.of());
        assertThat(revoked.status()).as(revoked.body()).isEqualTo(200);
        int hits = HITS.size();
        var approved = kernel.post("/api/v1/approvals/" + approval + "/approve", admin2, Map.of());
        assertThat(approved.body()).as("released, then refused at the gate").contains("no_service_grant");
        assertThat(HITS.size()).as("the target was not called").isEqualTo(hits);
        assertThat(approved.json().path("result").path("status").asText()).isEqualTo("denied");
    }
}
