package dev.backplane.kernel.agents;

import static dev.backplane.kernel.testing.ScriptedModel.slow;
import static dev.backplane.kernel.testing.ScriptedModel.text;
import static dev.backplane.kernel.testing.ScriptedModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestPlugins;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Agent runs end to end: the kernel's LangChain4j client talks to a scripted OpenAI-compatible server
 * over real HTTP, every tool call goes through the real dispatch pipeline to a real loopback target
 * as the run's agent principal, and the audit rows carry the run's session id. Also: output schema
 * with one repair turn, turn budget, toolset bounds, approval parking and resume, run-cancel and the
 * kill switch in flight, and the refusals.
 */
class AgentRunsIT extends PerTestTenant {

    private static final String PASSWORD = "runs-pw-" + UUID.randomUUID();
    private static final List<String> HITS = new CopyOnWriteArrayList<>();
    private static LoopbackTarget target;
    private static ScriptedModel model;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.basicAuthItems(setup, "svc", PASSWORD, LoopbackTarget.recordInto(HITS));
        model = ScriptedModel.forKernel(setup);
        setup.plugin(TestPlugins.connector("run", "1.x").product("run").ranges("*").operations(6).httpProbe(false));
    }

    @BeforeEach
    void fresh() {
        model.reset();
    }

    private void setUp(String principal, String agent, Map<String, Object> extra) {
        target.register(kernel, admin, "t-" + agent, "run");
        kernel.enableConnector(admin, "run-1.x");
        assertThat(kernel.post("/api/v1/agent-principals", admin, Map.of("name", principal)).status()).isEqualTo(201);
        Map<String, Object> def = new LinkedHashMap<>(Map.of("name", agent, "identity_ref", principal,
                "system_prompt", "You count items.", "toolset", Map.of("call_operation", true)));
        def.putAll(extra);
        var r = kernel.post("/api/v1/agents", admin, def);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    private static Map<String, Object> call(String agent, String op) {
        return Map.of("connector_id", "run-1.x", "op_id", op, "target", "t-" + agent, "params", Map.of("count", 3));
    }

    private JsonNode run(String agent, Map<String, Object> body, int status) {
        var r = kernel.post("/api/v1/agents/" + agent + "/runs", operator, body);
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        return r.json();
    }

    private JsonNode awaitStatus(String handle, String... statuses) throws InterruptedException {
        return kernel.awaitAgentRun(operator, handle, Duration.ofSeconds(30), statuses);
    }

    private List<String> eventKinds(String handle) {
        List<String> kinds = new ArrayList<>();
        kernel.get("/api/v1/agent-runs/" + handle + "/events", operator).json().path("events")
                .forEach(e -> kinds.add(e.path("kind").asText()));
        return kinds;
    }

    @Test
    void aRunCallsAnOperationThroughThePipelineAsItsAgentAndEveryAuditRowCarriesItsSession() throws Exception {
        setUp("counter-bot", "counter", Map.of("output_schema", Map.of("type", "object", "required", List.of("summary"),
                "properties", Map.of("summary", Map.of("type", "string")))));
        model.then(toolCall("call_operation", call("counter", "run.item0.list")), text("{\"summary\": \"3 items\"}"));
        int hits = HITS.size();
        JsonNode run = run("counter", Map.of("input", "How many items are there?", "work_ref", "CHG-7"), 200);
        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");
        assertThat(run.path("output").path("summary").asText()).isEqualTo("3 items");
        assertThat(run.path("turns").asInt()).isEqualTo(2);
        assertThat(run.path("work_ref").asText()).isEqualTo("CHG-7");
        assertThat(run.toString()).as("the prompt is not kept, only its hash").doesNotContain("How many items");
        assertThat(HITS.size()).as("the target was really called").isGreaterThan(hits);

        JsonNode first = model.requests().get(0);
        assertThat(first.path("stream").asBoolean()).as("the model answers as a stream of chunks").isTrue();
        List<String> offered = new ArrayList<>();
        first.path("tools").forEach(t -> offered.add(t.path("function").path("name").asText()));
        assertThat(offered).contains("call_operation", "search_memory", "list_targets")
                .doesNotContain("add_to_memory", "add_to_knowledge");
        assertThat(ScriptedModel.transcript(model.requests().get(1))).as("the tool result went back to the model")
                .contains("item-0").contains("item-2");

        String handle = run.path("handle").asText();
        List<Map<String, Object>> rows = kernel.jdbc().query("SELECT op_id, principal, principal_kind, work_ref, "
                + "result_status FROM audit_rows WHERE session_id = ? ORDER BY occurred_at", rs -> Map.of(
                        "op_id", rs.getString(1), "principal", rs.getString(2), "kind", rs.getString(3),
                        "work_ref", String.valueOf(rs.getString(4)), "status", rs.getString(5)), UUID.fromString(handle));
        assertThat(rows).extracting(r -> r.get("op_id")).containsExactly("run.item0.list", "svc.agent_runs.run");
        assertThat(rows.get(0)).containsEntry("principal", "svc-agent:counter-bot").containsEntry("kind", "agent")
                .containsEntry("work_ref", "CHG-7").containsEntry("status", "ok");
        assertThat(eventKinds(handle)).containsExactly("turn_started", "tool_call", "tool_result", "turn_started",
                "final_output");
        var listed = kernel.get("/api/v1/agent-runs?agent_name=counter&status=succeeded&work_ref=CHG-7", operator);
        assertThat(listed.json().path("runs")).hasSize(1);

        // the activity feed: the run's start, its call as the agent, its finish, all naming the run
        List<JsonNode> feed = new ArrayList<>();
        for (int i = 0; i < 100 && feed.size() < 3; i++) {
            Thread.sleep(100);
            feed.clear();
            kernel.get("/api/v1/broadcast/recent?work_ref=CHG-7", operator).json().path("events").forEach(feed::add);
        }
        assertThat(feed).extracting(e -> e.path("kind").asText() + ":" + e.path("status").asText())
                .containsExactly("run:succeeded", "dispatch:ok", "run:running");
        assertThat(feed).allSatisfy(e -> assertThat(e.path("run_id").asText()).isEqualTo(handle));
        assertThat(feed.get(1).path("principal").asText()).isEqualTo("svc-agent:counter-bot");
        assertThat(feed.get(0).path("phase").asText()).isEqualTo("completion");
        assertThat(feed.get(0).path("actor_sub").asText()).as("who started the run").isEqualTo("op-" + tenant);
    }

    @Test
    void anOutputThatMissesTheSchemaGetsOneRepairTurnThenTheRunFails() {
        setUp("schema-bot", "schema", Map.of("output_schema", Map.of("type", "object", "required", List.of("verdict"))));
        model.then(text("I think it is fine"), text("{\"verdict\": \"fine\"}"));
        JsonNode repaired = run("schema", Map.of("input", "judge"), 200);
        assertThat(repaired.path("status").asText()).as(repaired.toString()).isEqualTo("succeeded");
        assertThat(ScriptedModel.transcript(model.requests().get(1))).contains("does not match the required JSON Schema");

        model.then(text("nope"), text("{\"other\": 1}"));
        JsonNode failed = run("schema", Map.of("input", "judge again"), 200);
        assertThat(failed.path("status").asText()).isEqualTo("failed");
        assertThat(failed.path("error_code").asText()).isEqualTo("output_schema_mismatch");
        assertThat(failed.path("error").asText()).contains("verdict");
    }

    @Test
    void theTurnBudgetBoundsTheLoopAndATheToolsetBoundsTheTools() {
        setUp("budget-bot", "budget", Map.of("turn_budget", 2));
        model.then(toolCall("add_to_memory", Map.of("body", "x", "scope", "user")),
                toolCall("call_operation", call("budget", "run.item0.list")));
        JsonNode run = run("budget", Map.of("input", "loop"), 200);
        assertThat(run.path("status").asText()).isEqualTo("failed");
        assertThat(run.path("error_code").asText()).isEqualTo("turn_budget_exhausted");
        assertThat(ScriptedModel.transcript(model.requests().get(1))).as("a tool outside the toolset is refused to the model")
                .contains("tool_not_in_toolset");
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM memory_entries WHERE tenant_id = ?", rs -> rs.getLong(1),
                tenant).orElseThrow()).isZero();
    }

    @Test
    void aWriteNeedingApprovalParksTheRunAndASecondPersonsApprovalResumesIt() throws Exception {
        setUp("writer-bot", "writer", Map.of());
        assertThat(kernel.patch("/api/v1/connectors/run-1.x/operations/run.item5.delete", admin,
                Map.of("is_enabled", true, "safety_level", "caution")).status()).isEqualTo(200);
        model.then(toolCall("call_operation", Map.of("connector_id", "run-1.x", "op_id", "run.item5.delete",
                "target", "t-writer", "params", Map.of("name", "old"))), text("deleted it"));
        JsonNode started = run("writer", Map.of("input", "delete old", "async", true), 202);
        String handle = started.path("handle").asText();
        JsonNode parked = awaitStatus(handle, "awaiting_approval");
        String approval = parked.path("approval_request_id").asText();
        assertThat(HITS).as("nothing was deleted yet").doesNotContain("DELETE /items/old");
        String second = issuer.token("second-" + tenant, tenant, "tenant_admin");
        var approved = kernel.post("/api/v1/approvals/" + approval + "/approve", second, Map.of());
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        JsonNode done = awaitStatus(handle, "succeeded", "failed");
        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("succeeded");
        assertThat(HITS).contains("DELETE /items/old");
        assertThat(eventKinds(handle)).contains("approval_parked", "approval_decided");
        assertThat(ScriptedModel.transcript(model.requests().get(1))).contains("approved_and_executed");
    }

    @Test
    void runCancelAndTheKillSwitchStopARunInFlight() throws Exception {
        setUp("slow-bot", "slow", Map.of());
        model.then(slow(1500, toolCall("call_operation", call("slow", "run.item0.list"))), text("never"));
        String handle = run("slow", Map.of("input", "take your time", "async", true), 202).path("handle").asText();
        awaitStatus(handle, "running");
        var cancel = kernel.post("/api/v1/agent-runs/" + handle + "/cancel", operator, Map.of());
        assertThat(cancel.status()).as(cancel.body()).isEqualTo(200);
        JsonNode cancelled = awaitStatus(handle, "cancelled", "failed", "succeeded");
        assertThat(cancelled.path("status").asText()).as(cancelled.toString()).isEqualTo("cancelled");
        assertThat(kernel.post("/api/v1/agent-runs/" + handle + "/cancel", operator, Map.of()).json().path("error")
                .asText()).isEqualTo("run_finished");

        model.reset();
        model.then(slow(1500, toolCall("call_operation", call("slow", "run.item0.list"))), text("never"));
        String second = run("slow", Map.of("input", "again", "async", true), 202).path("handle").asText();
        awaitStatus(second, "running");
        assertThat(kernel.post("/api/v1/agent-principals/slow-bot/revoke", admin, Map.of()).status()).isEqualTo(200);
        JsonNode killed = awaitStatus(second, "cancelled", "failed", "succeeded");
        assertThat(killed.path("status").asText()).isEqualTo("cancelled");
        assertThat(killed.path("error_code").asText()).isEqualTo("principal_revoked");
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE session_id = ? AND op_id = 'run.item0.list'",
                rs -> rs.getLong(1), UUID.fromString(second)).orElseThrow()).as("no call after the kill switch").isZero();
    }

    @Test
    void theCliRunsAgentsAndReadsTheirRuns() throws Exception {
        setUp("cli-bot", "cli", Map.of());
        model.then(toolCall("call_operation", call("cli", "run.item0.list")), text("three items"));
        CliRunner cli = kernel.cli(TempDirs.create("svc-runs-cli"), operator);
        var run = cli.run("agent", "run", "cli", "--input", "count them", "--work-ref", "CHG-CLI");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("succeeded").contains("three items").contains("CHG-CLI");
        String handle = run.out().substring(0, 36);
        assertThat(cli.run("agent", "run-status", handle).out()).contains("succeeded");
        assertThat(cli.run("agent", "run-list", "--agent-name", "cli").out()).contains(handle);
        var events = cli.run("agent", "run-status", handle, "--events");
        assertThat(events.out().lines().filter(l -> l.startsWith("{")).count()).isEqualTo(5);
        assertThat(events.out()).contains("\"kind\":\"tool_call\"");

        model.then(toolCall("call_operation", call("cli", "run.item0.list")), text("streamed"));
        var stream = cli.run("agent", "run-events", "cli", "--input", "stream it");
        assertThat(stream.exitCode()).as(stream.toString()).isZero();
        List<String> kinds = stream.out().lines().map(l -> {
            try {
                return new com.fasterxml.jackson.databind.ObjectMapper().readTree(l).path("kind").asText();
            } catch (Exception e) {
                throw new AssertionError("not one JSON object a line: " + l);
            }
        }).toList();
        assertThat(kinds).containsExactly("turn_started", "tool_call", "tool_result", "turn_started", "final_output",
                "run_finished");
        assertThat(stream.out().lines().toList().getLast()).contains("\"status\":\"succeeded\"");
        var again = cli.run("agent", "run-cancel", handle);
        assertThat(again.exitCode()).isNotZero();
        assertThat(again.err()).contains("already succeeded");
        assertThat(cli.run("agent", "run", "cli").exitCode()).as("--input is required").isEqualTo(2);

        model.then(slow(1000, text("later")));
        var async = cli.run("agent", "run", "cli", "--input", "later", "--async");
        assertThat(async.exitCode()).as(async.toString()).isZero();
        assertThat(async.out()).containsAnyOf("pending", "running");
        awaitStatus(async.out().substring(0, 36), "succeeded");
    }

    @Test
    void runEventsStreamsServerSentEventsUntilTheRunFinishes() {
        setUp("sse-bot", "sse", Map.of());
        model.then(slow(300, text("done")));
        var r = kernel.send("POST", "/api/v1/agents/sse/run-events", operator, "{\"input\": \"go\"}",
                Map.of("Accept", "text/event-stream"));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.header("Content-Type").orElse("")).startsWith("text/event-stream");
        String handle = r.header("X-Svc-Run-Handle").orElseThrow();
        assertThat(r.body()).contains("event: turn_started\n").contains("event: final_output\n")
                .contains("event: run_finished\n").contains(handle);
        assertThat(kernel.send("POST", "/api/v1/agents/nobody/run-events", operator, "{\"input\": \"go\"}", Map.of())
                .status()).as("refusals are plain JSON errors before any stream").isEqualTo(404);
    }

    @Test
    void badRunRequestsAreRefusedWithTheirCodes() {
        setUp("bad-bot", "bad", Map.of());
        assertThat(kernel.post("/api/v1/agents/bad/runs", operator, Map.of()).json().path("error").asText())
                .isEqualTo("invalid_run");
        assertThat(kernel.post("/api/v1/agents/bad/runs", operator, Map.of("input", " ")).status()).isEqualTo(422);
        assertThat(kernel.post("/api/v1/agents/nobody/runs", operator, Map.of("input", "x")).json().path("error").asText())
                .isEqualTo("agent_not_found");
        kernel.patch("/api/v1/agents/bad", admin, Map.of("enabled", false));
        var disabled = kernel.post("/api/v1/agents/bad/runs", operator, Map.of("input", "x"));
        assertThat(disabled.status()).isEqualTo(409);
        assertThat(disabled.json().path("error").asText()).isEqualTo("agent_disabled");
        assertThat(kernel.get("/api/v1/agent-runs/" + UUID.randomUUID(), operator).json().path("error").asText())
                .isEqualTo("run_not_found");
        assertThat(kernel.get("/api/v1/agent-runs/not-a-uuid", operator).status()).isEqualTo(404);
        assertThat(kernel.get("/api/v1/agent-runs?status=exploded", operator).json().path("error").asText())
                .isEqualTo("invalid_status");
        assertThat(kernel.get("/api/v1/agent-runs?limit=0", operator).status()).isEqualTo(422);
        assertThat(kernel.get("/api/v1/agent-runs", issuer.token("ro-" + tenant, tenant, "read_only")).status())
                .isEqualTo(403);
        assertThat(kernel.get("/api/v1/agent-runs", issuer.operator(UUID.randomUUID())).json().path("runs")).isEmpty();
    }
}
