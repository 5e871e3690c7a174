package dev.backplane.kernel.runbooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Runbooks end to end on a real kernel and PostgreSQL: templates versioned (a published version never
 * changes, editing forks the next draft), YAML problems reported with line and column, runs that show
 * only their current step, run operations through the governed pipeline (a write parks for approval
 * and the run resumes once another person approves), verification gating, escalation, abort rights,
 * tenant bounds, and the CLI.
 */
class RunbooksIT extends PerTestTenant {

    private static LoopbackTarget target;
    private final String operator2 = issuer.token("op2-" + tenant, tenant, "operator");

    static final String RESTART = """
            title: Restart the items service
            description: When items are stuck.
            target_kind: rb
            inputs:
              - name: item
                description: the stuck item
              - name: count
                required: false
                default: "2"
            steps:
              - name: look
                instruction: List the items and find {{input.item}}.
                operation:
                  connector_id: rb-1.x
                  op_id: rb.item0.list
                  params: {count: 2}
                verify: Is {{input.item}} listed?
              - name: remove
                instruction: Delete {{input.item}}.
                operation:
                  connector_id: rb-1.x
                  op_id: rb.item2.delete
                  params: {name: "{{input.item}}"}
                verify: Did the delete succeed?
              - instruction: Tell the team in the channel.
                verify: Did you post the note?
            """;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.start(setup, x -> LoopbackHttp.itemsOr(x, "{\"deleted\": true}"));
        setup.plugin(TestPlugins.connector("rb", "1.x").product("rb").ranges("*").operations(3).httpProbe(false));
        setup.plugin(TestPlugins.connector("rbx", "1.x").product("rbx").ranges("*").operations(1).httpProbe(false));
    }

    private void targetReady(String name) {
        target.register(kernel, admin, name, "rb");
        kernel.enableConnector(admin, "rb-1.x");
        assertThat(kernel.patch("/api/v1/connectors/rb-1.x/operations/rb.item2.delete", admin, Map.of("is_enabled", true,
                "safety_level", "caution")).status()).isEqualTo(200);
    }

    private JsonNode ok(TestKernel.Response r, int status) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        return r.json();
    }

    private JsonNode error(TestKernel.Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().path("error").asText()).as(r.body()).isEqualTo(code);
        return r.json();
    }

    private void published(String slug, String yaml) {
        ok(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", slug, "yaml", yaml)), 201);
        ok(kernel.post("/api/v1/runbooks/templates/" + slug + "/publish", admin, null), 200);
    }

    private JsonNode next(String token, String run, Map<String, Object> body) {
        return ok(kernel.post("/api/v1/runbooks/runs/" + run + "/next", token, body), 200);
    }

    @Test
    void templatesAreVersionedAndAPublishedVersionNeverChanges() {
        JsonNode v1 = ok(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "restart", "yaml", RESTART)), 201);
        assertThat(v1.path("version").asInt()).isEqualTo(1);
        assertThat(v1.path("status").asText()).isEqualTo("draft");
        assertThat(v1.path("target_kind").asText()).isEqualTo("rb");
        assertThat(v1.path("steps").asInt()).isEqualTo(3);
        error(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "restart", "yaml", RESTART)), 409,
                "template_exists");
        // a draft changes in place
        String edited = RESTART.replace("When items are stuck.", "When items are stuck (edited).");
        JsonNode draft = ok(kernel.put("/api/v1/runbooks/templates/restart", admin, Map.of("yaml", edited)), 200);
        assertThat(draft.path("version").asInt()).isEqualTo(1);
        error(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "restart", "target", "x")), 409,
                "template_state");
        ok(kernel.post("/api/v1/runbooks/templates/restart/publish", admin, null), 200);
        error(kernel.post("/api/v1/runbooks/templates/restart/publish", admin, null), 409, "template_state");
        // editing a published template forks the next version; version 1 stays as published
        JsonNode v2 = ok(kernel.put("/api/v1/runbooks/templates/restart", admin, Map.of("yaml",
                RESTART.replace("Restart the items service", "Restart the items service, v2"))), 200);
        assertThat(v2.path("version").asInt()).isEqualTo(2);
        assertThat(v2.path("status").asText()).isEqualTo("draft");
        JsonNode still = ok(kernel.get("/api/v1/runbooks/templates/restart?version=1", operator), 200);
        assertThat(still.path("status").asText()).isEqualTo("published");
        assertThat(still.path("source").asText()).isEqualTo(edited);
        assertThat(ok(kernel.get("/api/v1/runbooks/templates/restart", operator), 200).path("version").asInt()).isEqualTo(2);
        ok(kernel.post("/api/v1/runbooks/templates/restart/publish", admin, null), 200);
        JsonNode deprecated = ok(kernel.post("/api/v1/runbooks/templates/restart/deprecate", admin, Map.of("version", 1)),
                200);
        assertThat(deprecated.path("status").asText()).isEqualTo("deprecated");
        error(kernel.post("/api/v1/runbooks/templates/restart/deprecate", admin, Map.of("version", 1)), 409, "template_state");
        error(kernel.post("/api/v1/runbooks/templates/restart/deprecate", admin, Map.of("version", 9)), 404,
                "template_not_found");
        error(kernel.post("/api/v1/runbooks/templates/restart/deprecate", admin, Map.of()), 422, "invalid_runbook");

        var list = ok(kernel.get("/api/v1/runbooks/templates?status=published", operator), 200).path("templates");
        assertThat(list).extracting(t -> t.path("slug").asText() + "@" + t.path("version").asInt()).containsExactly("restart@2");
        assertThat(ok(kernel.get("/api/v1/runbooks/templates", operator), 200).path("templates")).hasSize(2);
        assertThat(ok(kernel.get("/api/v1/runbooks/templates?target_kind=k8s", operator), 200).path("templates")).isEmpty();
        error(kernel.get("/api/v1/runbooks/templates?status=live", operator), 422, "invalid_status");
        error(kernel.get("/api/v1/runbooks/templates?limit=501", operator), 422, "invalid_limit");
        error(kernel.get("/api/v1/runbooks/templates/restart?version=0", operator), 422, "invalid_runbook");
        error(kernel.get("/api/v1/runbooks/templates/nope", operator), 404, "template_not_found");

        // roles: operators read, only tenant_admins write; another tenant sees nothing
        error(kernel.post("/api/v1/runbooks/templates", operator, Map.of("slug", "mine", "yaml", RESTART)), 403,
                "insufficient_role");
        error(kernel.put("/api/v1/runbooks/templates/restart", operator, Map.of("yaml", RESTART)), 403, "insufficient_role");
        error(kernel.post("/api/v1/runbooks/templates/restart/publish", operator, null), 403, "insufficient_role");
        String other = issuer.tenantAdmin(UUID.randomUUID());
        error(kernel.get("/api/v1/runbooks/templates/restart", other), 404, "template_not_found");
        assertThat(ok(kernel.get("/api/v1/runbooks/templates", other), 200).path("templates")).isEmpty();
        error(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "Bad_Slug", "yaml", RESTART)), 422,
                "invalid_slug");
    }

    @Test
    void yamlProblemsAreReportedWithTheirLineAndColumn() {
        JsonNode syntax = error(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "broken", "yaml",
                "title: x\nsteps:\n  - instruction: a\n   verify: [unclosed\n")), 422, "invalid_runbook");
        assertThat(syntax.path("extras").path("errors").get(0).path("line").asInt()).isEqualTo(4);
        assertThat(syntax.path("message").asText()).contains("line 4");

        JsonNode schema = error(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "broken", "yaml", """
                title: Missing things
                steps:
                  - instruction: first
                    verify: ok?
                  - instruction: second
                  - instrucion: typo
                    verify: ok?
                """)), 422, "invalid_runbook");
        List<String> where = new ArrayList<>();
        schema.path("extras").path("errors").forEach(e -> where.add(e.path("line").asInt() + ":" + e.path("column").asInt()
                + " " + e.path("message").asText()));
        assertThat(where).anySatisfy(w -> assertThat(w).startsWith("5:").contains("verify"));
        assertThat(where).anySatisfy(w -> assertThat(w).startsWith("6:").contains("instrucion"));

        JsonNode placeholder = error(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "broken", "yaml", """
                title: Placeholders
                inputs:
                  - name: host
                steps:
                  - instruction: Ping {{input.hostname}}.
                    verify: Pong?
                """)), 422, "invalid_runbook");
        JsonNode first = placeholder.path("extras").path("errors").get(0);
        assertThat(first.path("line").asInt()).isEqualTo(5);
        assertThat(first.path("message").asText()).contains("input.hostname").contains("declared: host");

        JsonNode dup = error(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "broken", "yaml",
                "title: a\ntitle: b\nsteps:\n  - {instruction: x, verify: y}\n")), 422, "invalid_runbook");
        assertThat(dup.path("extras").path("errors").get(0).path("line").asInt()).isEqualTo(2);
        assertThat(dup.path("extras").path("errors").get(0).path("message").asText()).contains("duplicate key");

        error(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "broken", "yaml", "")), 422, "invalid_runbook");
        error(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "broken", "yaml", "- just\n- a list\n")),
                422, "invalid_runbook");
        error(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "broken", "yaml",
                "a: &a [*a, *a]\n")), 422, "invalid_runbook");
        error(kernel.get("/api/v1/runbooks/templates/broken", admin), 404, "template_not_found");
    }

    @Test
    void aRunShowsOnlyItsCurrentStepAndItsWriteParksForApprovalThenResumes() {
        targetReady("rb-main");
        published("restart", RESTART);
        JsonNode run = ok(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "restart", "target", "rb-main",
                "inputs", Map.of("item", "item-1"), "work_ref", "CHG-42")), 201);
        String id = run.path("id").asText();
        assertThat(run.path("status").asText()).isEqualTo("in_progress");
        assertThat(run.path("inputs").path("count").asText()).as("the default").isEqualTo("2");
        assertThat(run.path("current_step").path("index").asInt()).isEqualTo(1);
        assertThat(run.path("current_step").path("instruction").asText()).isEqualTo("List the items and find item-1.");
        assertThat(run.toString()).as("later steps stay hidden").doesNotContain("Delete item-1")
                .doesNotContain("Tell the team");

        error(kernel.post("/api/v1/runbooks/runs/" + id + "/next", operator, Map.of("verify_response", "yes")), 409,
                "step_not_run");
        run = next(operator, id, Map.of());
        assertThat(run.path("current_step").path("phase").asText()).isEqualTo("executed");
        assertThat(run.path("current_step").path("result").path("status").asText()).isEqualTo("ok");
        // the step's call went through the pipeline as the operator, in the run's audit session
        List<String> audited = kernel.jdbc().query("SELECT op_id || ':' || principal || ':' || work_ref FROM audit_rows "
                + "WHERE session_id = ?", rs -> rs.getString(1), UUID.fromString(id));
        assertThat(audited).containsExactly("rb.item0.list:op-" + tenant + ":CHG-42");

        // the step's result is the runner's; another operator sees its outcome only
        JsonNode seenByOther = ok(kernel.get("/api/v1/runbooks/runs/" + id, operator2), 200).path("current_step")
                .path("result");
        assertThat(seenByOther.path("status").asText()).isEqualTo("ok");
        assertThat(seenByOther.has("result")).isFalse();
        assertThat(seenByOther.path("note").asText()).contains("op-" + tenant);
        error(kernel.post("/api/v1/runbooks/runs/" + id + "/next", operator, Map.of("verify_response", "yes", "step", 0)),
                422, "invalid_run");
        run = next(operator, id, Map.of("verify_response", "yes", "step", 1));
        assertThat(run.path("current_step").path("index").asInt()).isEqualTo(2);
        error(kernel.post("/api/v1/runbooks/runs/" + id + "/next", operator, Map.of("verify_response", "yes", "step", 1)),
                409, "step_changed");
        assertThat(run.path("current_step").path("operation").path("params").path("name").asText()).isEqualTo("item-1");
        run = next(operator, id, Map.of());
        assertThat(run.path("status").asText()).isEqualTo("awaiting_approval");
        String approval = run.path("current_step").path("approval_request_id").asText();
        assertThat(approval).isNotEmpty();
        // approvers see which run parked it and what the call would send (the connector's preview, nothing sent)
        JsonNode resolved = ok(kernel.get("/api/v1/approvals/" + approval, operator), 200).path("resolved");
        assertThat(resolved.path("session_id").asText()).isEqualTo(id);
        assertThat(resolved.path("requester_kind").asText()).isEqualTo("human");
        assertThat(resolved.path("preview").path("available").asBoolean()).as(resolved.toString()).isTrue();
        assertThat(resolved.path("preview").path("method").asText()).isEqualTo("DELETE");
        assertThat(resolved.path("preview").path("path").asText()).isEqualTo("/items/item-1");
        // still parked: a yes is refused, a plain next changes nothing
        error(kernel.post("/api/v1/runbooks/runs/" + id + "/next", operator, Map.of("verify_response", "yes")), 409,
                "approval_pending");
        error(kernel.post("/api/v1/runbooks/runs/" + id + "/next", operator, Map.of("verify_response", "escalate")), 409,
                "approval_pending");
        assertThat(next(operator, id, Map.of()).path("status").asText()).isEqualTo("awaiting_approval");
        // another person approves; the parked call runs; the run resumes at the executed step
        ok(kernel.post("/api/v1/approvals/" + approval + "/approve", admin, Map.of("reason", "go")), 200);
        run = next(operator, id, Map.of());
        assertThat(run.path("status").asText()).isEqualTo("in_progress");
        assertThat(run.path("current_step").path("phase").asText()).isEqualTo("executed");
        assertThat(run.path("current_step").path("result").path("status").asText()).isEqualTo("ok");
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE session_id = ? AND op_id = "
                + "'rb.item2.delete' AND result_status = 'ok'", rs -> rs.getLong(1), UUID.fromString(id)).orElseThrow())
                .as("the call the approval released is audited in the run's session too").isEqualTo(1);
        run = next(operator, id, Map.of("verify_response", "yes"));
        assertThat(run.path("current_step").path("index").asInt()).isEqualTo(3);
        assertThat(run.path("current_step").has("operation")).isFalse();
        run = next(operator, id, Map.of("verify_response", "yes", "reason", "posted"));
        assertThat(run.path("status").asText()).isEqualTo("completed");
        assertThat(run.has("current_step")).isFalse();
        assertThat(run.path("finished_at").asText()).isNotEmpty();
        List<String> log = new ArrayList<>();
        run.path("log").forEach(e -> log.add(e.path("step").asInt() + ":" + e.path("action").asText() + ":"
                + (e.path("outcome").isNull() ? "" : e.path("outcome").asText())));
        assertThat(log).containsExactly("1:started:", "1:operation:ok", "1:verified:yes", "2:operation:awaiting_approval",
                "2:approval:approved", "2:verified:yes", "3:verified:yes");
        error(kernel.post("/api/v1/runbooks/runs/" + id + "/next", operator, Map.of()), 409, "run_finished");
        assertThat(ok(kernel.get("/api/v1/runbooks/runs?status=completed", operator2), 200).path("runs"))
                .extracting(r -> r.path("id").asText()).contains(id);

        // a rejected approval stops the run at that step
        String second = ok(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "restart", "target", "rb-main",
                "inputs", Map.of("item", "item-2"))), 201).path("id").asText();
        next(operator, second, Map.of());
        next(operator, second, Map.of("verify_response", "yes"));
        String approval2 = next(operator, second, Map.of()).path("current_step").path("approval_request_id").asText();
        ok(kernel.post("/api/v1/approvals/" + approval2 + "/reject", admin, Map.of("reason", "not today")), 200);
        JsonNode stopped = next(operator, second, Map.of());
        assertThat(stopped.path("status").asText()).isEqualTo("stopped");
        assertThat(stopped.path("reason").asText()).contains("rejected").contains("not today");

        // stopping (no) or aborting a run whose write waits for approval withdraws the request: it never runs; the
        // approvers are told (the withdrawal's outbox row is written in its transaction)
        ok(kernel.put("/api/v1/tenants/current/approval-notifications", admin, Map.of("mail_recipients",
                "approvers@example.com")), 200);
        for (String how : List.of("no", "abort")) {
            String third = ok(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "restart", "target", "rb-main",
                    "inputs", Map.of("item", "item-" + how))), 201).path("id").asText();
            next(operator, third, Map.of());
            next(operator, third, Map.of("verify_response", "yes"));
            String parked = next(operator, third, Map.of()).path("current_step").path("approval_request_id").asText();
            JsonNode ended = how.equals("no") ? next(operator, third, Map.of("verify_response", "no", "reason", "wrong item"))
                    : ok(kernel.post("/api/v1/runbooks/runs/" + third + "/abort", operator, Map.of("reason", "wrong item")), 200);
            assertThat(ended.path("status").asText()).isEqualTo(how.equals("no") ? "stopped" : "aborted");
            JsonNode request = ok(kernel.get("/api/v1/approvals/" + parked, admin), 200);
            assertThat(request.path("status").asText()).as(how).isEqualTo("rejected");
            assertThat(request.path("reason").asText()).contains("runbook run " + third);
            assertThat(kernel.post("/api/v1/approvals/" + parked + "/approve", admin, Map.of("reason", "late")).status())
                    .as("a withdrawn request cannot be approved").isEqualTo(409);
            assertThat(kernel.jdbc().query("SELECT event FROM notification_outbox WHERE approval_id = ?::uuid "
                    + "ORDER BY created_at", rs -> rs.getString(1), parked)).as(how).containsExactly("parked", "withdrawn");
            assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE op_id = 'rb.item2.delete' AND "
                    + "result_status = 'ok' AND session_id = ?", rs -> rs.getLong(1), UUID.fromString(third)).orElseThrow())
                    .isZero();
        }
    }

    @Test
    void verificationGatesEscalationAndAbortRights() {
        targetReady("rb-gate");
        published("gates", RESTART);
        error(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "gates", "inputs", Map.of("item", "a"))), 422,
                "invalid_run");
        error(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "gates", "target", "rb-gate")), 422,
                "invalid_run");
        error(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "gates", "target", "rb-gate", "inputs",
                Map.of("item", "a", "colour", "red"))), 422, "invalid_run");
        error(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "gates", "target", "nowhere", "inputs",
                Map.of("item", "a"))), 404, "target_not_found");
        error(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "nope", "target", "rb-gate")), 404,
                "template_not_found");
        kernel.registerTarget(admin, Map.of("name", "other-kind", "product", "rbx", "host", "127.0.0.1", "port", 6443));
        error(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "gates", "target", "other-kind", "inputs",
                Map.of("item", "a"))), 422, "target_kind_mismatch");
        error(kernel.post("/api/v1/runbooks/runs", issuer.token("ro-" + tenant, tenant, "read_only"), Map.of("slug",
                "gates", "target", "rb-gate", "inputs", Map.of("item", "a"))), 403, "insufficient_role");

        // no: the run stops at that step with the reason
        String run = ok(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "gates", "target", "rb-gate",
                "inputs", Map.of("item", "a"))), 201).path("id").asText();
        next(operator, run, Map.of());
        error(kernel.post("/api/v1/runbooks/runs/" + run + "/next", operator, Map.of("verify_response", "maybe")), 422,
                "invalid_run");
        error(kernel.post("/api/v1/runbooks/runs/" + run + "/next", operator2, Map.of()), 403, "not_assignee");
        JsonNode stopped = next(operator, run, Map.of("verify_response", "no", "reason", "item a is missing"));
        assertThat(stopped.path("status").asText()).isEqualTo("stopped");
        assertThat(stopped.path("reason").asText()).isEqualTo("item a is missing");
        assertThat(stopped.path("current_step").path("index").asInt()).isEqualTo(1);

        // escalate: another tenant_admin decides; not the assignee, not an operator
        String esc = ok(kernel.post("/api/v1/runbooks/runs", admin, Map.of("slug", "gates", "target", "rb-gate",
                "inputs", Map.of("item", "b"))), 201).path("id").asText();
        next(admin, esc, Map.of());
        assertThat(next(admin, esc, Map.of("verify_response", "escalate", "reason", "odd output")).path("status").asText())
                .isEqualTo("escalated");
        error(kernel.post("/api/v1/runbooks/runs/" + esc + "/next", operator, Map.of("verify_response", "yes")), 403,
                "insufficient_role");
        error(kernel.post("/api/v1/runbooks/runs/" + esc + "/next", admin, Map.of("verify_response", "yes")), 403,
                "four_eyes");
        error(kernel.post("/api/v1/runbooks/runs/" + esc + "/next", admin2, Map.of()), 422, "invalid_run");
        error(kernel.post("/api/v1/runbooks/runs/" + esc + "/next", admin2, Map.of("verify_response", "yes", "step", 2)),
                409, "step_changed");
        JsonNode resumed = next(admin2, esc, Map.of("verify_response", "yes", "reason", "looks fine to me", "step", 1));
        assertThat(resumed.path("status").asText()).isEqualTo("in_progress");
        assertThat(resumed.path("current_step").path("index").asInt()).isEqualTo(2);

        // abort: the assignee or a tenant_admin, with a reason
        error(kernel.post("/api/v1/runbooks/runs/" + esc + "/abort", operator, Map.of("reason", "mine now")), 403,
                "not_assignee");
        error(kernel.post("/api/v1/runbooks/runs/" + esc + "/abort", admin, Map.of()), 422, "invalid_run");
        error(kernel.post("/api/v1/runbooks/runs/" + esc + "/abort", admin, Map.of("reason", "")), 422, "invalid_run");
        JsonNode aborted = ok(kernel.post("/api/v1/runbooks/runs/" + esc + "/abort", admin, Map.of("reason",
                "maintenance window closed")), 200);
        assertThat(aborted.path("status").asText()).isEqualTo("aborted");
        error(kernel.post("/api/v1/runbooks/runs/" + esc + "/abort", admin, Map.of("reason", "again")), 409, "run_finished");
        String mine = ok(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "gates", "target", "rb-gate",
                "inputs", Map.of("item", "c"))), 201).path("id").asText();
        assertThat(ok(kernel.post("/api/v1/runbooks/runs/" + mine + "/abort", admin2, Map.of("reason", "admin stops it")),
                200).path("status").asText()).isEqualTo("aborted");

        // tenant bounds and bad ids
        error(kernel.get("/api/v1/runbooks/runs/" + run, issuer.operator(UUID.randomUUID())), 404, "run_not_found");
        error(kernel.get("/api/v1/runbooks/runs/not-a-uuid", operator), 404, "run_not_found");
        error(kernel.get("/api/v1/runbooks/runs?status=done", operator), 422, "invalid_status");
        assertThat(ok(kernel.get("/api/v1/runbooks/runs?slug=gates&status=aborted", operator), 200).path("runs")).hasSize(2);
    }

    @Test
    void theCliDraftsPublishesAndWalksARun() throws Exception {
        targetReady("rb-cli");
        Path home = TempDirs.create("svc-cli-runbook");
        Path yaml = home.resolve("restart.yaml");
        Files.writeString(yaml, RESTART);
        CliRunner adm = kernel.cli(home.resolve("admin"), admin);
        CliRunner op = kernel.cli(home.resolve("op"), operator);

        CliRunner.Result drafted = adm.run("runbook", "draft-template", "cli-restart", "--from", yaml.toString());
        assertThat(drafted.exitCode()).as(drafted.toString()).isZero();
        assertThat(drafted.out()).contains("cli-restart  v1  draft");
        Path bad = home.resolve("bad.yaml");
        Files.writeString(bad, "title: x\nsteps:\n  - instruction: y\n");
        CliRunner.Result invalid = adm.run("runbook", "draft-template", "cli-bad", "--from", bad.toString());
        assertThat(invalid.exitCode()).isEqualTo(1);
        assertThat(invalid.err()).contains("invalid_runbook").contains("line 3");
        assertThat(adm.run("runbook", "publish-template", "cli-restart").out()).contains("published: cli-restart  v1");
        CliRunner.Result listed = op.run("runbook", "list-templates", "--status", "published");
        assertThat(listed.out()).contains("SLUG").contains("cli-restart").contains("rb");

        CliRunner.Result started = op.run("runbook", "start", "cli-restart", "--target", "rb-cli", "--input", "item=item-0",
                "--work-ref", "CHG-7");
        assertThat(started.exitCode()).as(started.toString()).isZero();
        assertThat(started.out()).contains("step 1/3: look").contains("List the items and find item-0.")
                .contains("svc runbook next");
        String id = started.out().replaceAll("(?s)^run (\\S+).*", "$1");
        CliRunner.Result ran = op.run("runbook", "next", id);
        assertThat(ran.exitCode()).as(ran.toString()).isZero();
        assertThat(ran.out()).contains("result: ok").contains("--verify-response yes|no|escalate");
        assertThat(op.run("runbook", "next", id, "--verify-response", "yes").out()).contains("step 2/3: remove");
        CliRunner.Result parked = op.run("runbook", "next", id);
        assertThat(parked.exitCode()).as(parked.toString()).isEqualTo(4);
        assertThat(parked.out()).contains("parked for approval");
        assertThat(parked.err()).doesNotContain("error:");
        assertThat(op.run("runbook", "next", id, "--verify-response", "perhaps").exitCode()).isEqualTo(2);
        CliRunner.Result shown = op.run("runbook", "show", id);
        assertThat(shown.out()).contains("step 1 operation: ok").contains("awaiting_approval");
        assertThat(op.run("runbook", "list", "--status", "awaiting_approval").out()).contains(id);
        CliRunner.Result aborted = op.run("runbook", "abort", id, "--reason", "wrong item");
        assertThat(aborted.exitCode()).as(aborted.toString()).isZero();
        assertThat(aborted.out()).contains("aborted").contains("reason: wrong item");
        assertThat(op.run("runbook", "abort", id).exitCode()).as("--reason is required").isEqualTo(2);

        Files.writeString(yaml, RESTART.replace("Tell the team", "Tell the whole team"));
        assertThat(adm.run("runbook", "edit-template", "cli-restart", "--from", yaml.toString()).out())
                .contains("cli-restart  v2  draft");
        assertThat(adm.run("runbook", "show-template", "cli-restart", "--version", "1").out()).contains("Tell the team")
                .doesNotContain("whole team");
        assertThat(adm.run("runbook", "deprecate-template", "cli-restart", "--version", "1").out())
                .contains("deprecated: cli-restart  v1  deprecated");
    }

    private static JsonNode mcp(String token, String method, String params) throws Exception {
        var r = kernel.send("POST", "/mcp", token, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"" + method
                + "\", \"params\": " + params + "}", Map.of("Accept", "application/json, text/event-stream"));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    @Test
    void agentsReadPublishedRunbooksAsMcpResourcesAndNothingElse() throws Exception {
        published("agent-readable", RESTART);
        ok(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "only-a-draft", "yaml", RESTART)), 201);
        String agentToken = issuer.mcpToken("agent-reader-" + tenant, tenant, "operator");
        JsonNode listed = mcp(agentToken, "resources/list", "{}");
        List<String> uris = new ArrayList<>();
        listed.path("result").path("resources").forEach(r -> uris.add(r.path("uri").asText()));
        assertThat(uris).contains("svc://runbook/agent-readable").doesNotContain("svc://runbook/only-a-draft");
        JsonNode read = mcp(agentToken, "resources/read", "{\"uri\": \"svc://runbook/agent-readable\"}");
        assertThat(read.path("result").path("contents").get(0).path("text").asText()).isEqualTo(RESTART);
        assertThat(mcp(agentToken, "resources/read", "{\"uri\": \"svc://runbook/only-a-draft\"}").path("error")
                .path("code").asInt()).isEqualTo(-32002);
        JsonNode templates = mcp(agentToken, "resources/templates/list", "{}");
        assertThat(templates.toString()).contains("svc://runbook/{slug}");
        String stranger = issuer.mcpToken("stranger", UUID.randomUUID(), "operator");
        assertThat(mcp(stranger, "resources/read", "{\"uri\": \"svc://runbook/agent-readable\"}").path("error")
                .path("code").asInt()).isEqualTo(-32002);
    }

    @Test
    void aStepsCallInFlightIsNotStartedTwiceAndAStaleClaimIsNeverRepeated() throws Exception {
        HttpServer slow = LoopbackHttp.start(x -> {
            try {
                Thread.sleep(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            LoopbackHttp.answer(x, 200, LoopbackHttp.items(x));
        });
        try {
            LoopbackTarget.on(slow).register(kernel, admin, "rb-slow", "rb");
            kernel.enableConnector(admin, "rb-1.x");
            published("slow-steps", RESTART);
            String id = ok(kernel.post("/api/v1/runbooks/runs", operator, Map.of("slug", "slow-steps", "target", "rb-slow",
                    "inputs", Map.of("item", "a"))), 201).path("id").asText();
            var first = java.util.concurrent.CompletableFuture.supplyAsync(() -> kernel.post("/api/v1/runbooks/runs/" + id
                    + "/next", operator, Map.of()));
            Thread.sleep(700);
            error(kernel.post("/api/v1/runbooks/runs/" + id + "/next", operator, Map.of()), 409, "step_in_flight");
            error(kernel.post("/api/v1/runbooks/runs/" + id + "/next", operator, Map.of("verify_response", "yes")), 409,
                    "step_in_flight");
            assertThat(ok(kernel.get("/api/v1/runbooks/runs/" + id, operator), 200).path("current_step").path("phase")
                    .asText()).isEqualTo("executing");
            JsonNode done = ok(first.get(30, java.util.concurrent.TimeUnit.SECONDS), 200);
            assertThat(done.path("current_step").path("result").path("status").asText()).isEqualTo("ok");
            assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE session_id = ? AND op_id = "
                    + "'rb.item0.list'", rs -> rs.getLong(1), UUID.fromString(id)).orElseThrow()).as("called once").isEqualTo(1);

            // a claim whose kernel died (simulated: claimed long ago, never answered) is not called again
            next(operator, id, Map.of("verify_response", "yes"));
            kernel.jdbc().update("UPDATE runbook_runs SET phase = 'executing', updated_at = now() - interval '1 hour' "
                    + "WHERE id = ?", UUID.fromString(id));
            JsonNode recovered = next(operator, id, Map.of());
            assertThat(recovered.path("current_step").path("phase").asText()).isEqualTo("executed");
            assertThat(recovered.path("current_step").path("result").path("status").asText()).isEqualTo("unknown");
            assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE session_id = ? AND op_id = "
                    + "'rb.item2.delete'", rs -> rs.getLong(1), UUID.fromString(id)).orElseThrow()).isZero();
        } finally {
            slow.stop(0);
        }
    }
}
