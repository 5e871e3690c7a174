package dev.backplane.kernel.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.client.api.ApprovalsApi;
import dev.backplane.client.api.AuditApi;
import dev.backplane.client.model.Approval;
import dev.backplane.client.model.AuditPage;
import dev.backplane.client.model.AuditRow;
import dev.backplane.client.model.PostApprovalsByIdApprove200Response;
import dev.backplane.client.model.PostApprovalsByIdApproveRequest;
import dev.backplane.client.model.PostApprovalsByIdRejectRequest;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.GeneratedClient;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The dispatch pipeline end to end: a real plugin calling a real loopback HTTP target. */
class DispatchIT extends PerTestTenant {

    private static final String PASSWORD = "disp-pw-" + UUID.randomUUID();
    private static final List<String> HITS = new CopyOnWriteArrayList<>();
    private static LoopbackTarget target;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.basicAuthItems(setup, "svc", PASSWORD, LoopbackTarget.recordInto(HITS));
        setup.plugin(TestPlugins.connector("disp", "1.x").product("disp").ranges("*").operations(6)
                .httpProbe(false).typedAndComposite());
    }

    private void setUpTarget(String name) {
        target.register(kernel, admin, name, "disp");
    }

    private void enableReads() {
        kernel.enableConnector(admin, "disp-1.x");
    }

    private JsonNode call(String token, String op, String target, String params, String extra) {
        var r = kernel.send("POST", "/api/v1/operations/call", token, "{\"connector_id\": \"disp-1.x\", \"op_id\": \"" + op
                + "\", \"target\": \"" + target + "\", \"params\": " + params + extra + "}", Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private List<JsonNode> auditRows(String target) {
        return kernel.jdbc().query("SELECT row_to_json(a)::text FROM audit_rows a WHERE tenant_id = ? AND target = ? "
                + "ORDER BY occurred_at", rs -> {
                    try {
                        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(rs.getString(1));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, tenant, target);
    }

    @Test
    void defaultDenyThenOkWithOneAuditRowPerCall() {
        setUpTarget("a1");
        int before = HITS.size();
        JsonNode denied = call(operator, "disp.item0.list", "a1", "{}", "");
        assertThat(denied.path("status").asText()).isEqualTo("denied");
        assertThat(denied.path("extras").path("error_code").asText()).isEqualTo("operation_not_enabled");
        assertThat(HITS).as("the target was not called").hasSize(before);

        enableReads();
        JsonNode ok = call(operator, "disp.item0.list", "a1", "{\"count\": 3}", ", \"work_ref\": \"CHG-1\"");
        assertThat(ok.path("status").asText()).as(ok.toString()).isEqualTo("ok");
        assertThat(ok.path("op_id").asText()).isEqualTo("disp.item0.list");
        assertThat(ok.path("result").size()).isEqualTo(3);
        assertThat(ok.has("duration_ms")).isTrue();
        assertThat(ok.has("error")).isTrue();
        assertThat(ok.toString()).doesNotContain(PASSWORD);

        List<JsonNode> rows = auditRows("a1");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).path("result_status").asText()).isEqualTo("denied");
        JsonNode row = rows.get(1);
        assertThat(row.path("result_status").asText()).isEqualTo("ok");
        assertThat(row.path("op_class").asText()).isEqualTo("read");
        assertThat(row.path("work_ref").asText()).isEqualTo("CHG-1");
        assertThat(row.path("principal").asText()).isEqualTo("op-" + tenant);
        assertThat(row.path("params_hash").asText()).hasSize(64);
        assertThat(row.toString()).doesNotContain(PASSWORD);
    }

    @Test
    void everyFinishedDispatchIsAnnouncedOnTheBroadcastHookWithoutParams() {
        setUpTarget("bc1");
        List<DispatchEvents.Event> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        kernel.kernel().dispatchEvents().subscribe(e -> {
            if (e.target().equals("bc1")) {
                heard.add(e);
            }
        });
        kernel.kernel().dispatchEvents().subscribe(e -> {
            throw new IllegalStateException("a broken subscriber");
        });
        call(operator, "disp.item0.list", "bc1", "{}", "");
        enableReads();
        JsonNode ok = call(operator, "disp.item0.list", "bc1", "{\"count\": 2}", ", \"work_ref\": \"CHG-9\"");
        assertThat(ok.path("status").asText()).as("a failing subscriber changes nothing").isEqualTo("ok");
        call(operator, "disp.item1.get", "bc1", "{\"name\": 5}", "");
        assertThat(heard).extracting(DispatchEvents.Event::status).containsExactly("denied", "ok", "error");
        DispatchEvents.Event done = heard.get(1);
        assertThat(done.workRef()).hasValue("CHG-9");
        assertThat(done.auditId()).hasValue(ok.path("extras").path("audit_id").asText());
        assertThat(done.principal()).isEqualTo("op-" + tenant);
        assertThat(heard.get(2).errorCode()).hasValue("invalid_params");
        assertThat(heard.toString()).doesNotContain(PASSWORD);
    }

    @Test
    void invalidParamsAreAnErrorWithValidationErrorsAndNoCall() {
        setUpTarget("a2");
        enableReads();
        int before = HITS.size();
        JsonNode r = call(operator, "disp.item1.get", "a2", "{\"name\": 5}", "");
        assertThat(r.path("status").asText()).isEqualTo("error");
        assertThat(r.path("extras").path("error_code").asText()).isEqualTo("invalid_params");
        assertThat(r.path("extras").path("validation_errors").toString()).contains("name");
        assertThat(HITS).hasSize(before);
    }

    @Test
    void bigResultsAreReducedAndQueryable() {
        setUpTarget("a3");
        enableReads();
        JsonNode r = call(operator, "disp.item0.list", "a3", "{\"count\": 120}", "");
        assertThat(r.path("status").asText()).isEqualTo("ok");
        assertThat(r.path("result").size()).isLessThanOrEqualTo(10);
        JsonNode drill = r.path("extras").path("fetch_more").path("drill_in");
        assertThat(drill.path("available").asBoolean()).isTrue();
        assertThat(drill.path("expires_at").asText()).isNotEmpty();
        assertThat(r.path("extras").path("total_rows").asInt()).isEqualTo(120);
        String handle = drill.path("handle_id").asText();
        var page = kernel.send("POST", "/api/v1/operations/result-query", operator,
                "{\"handle_id\": \"" + handle + "\", \"offset\": 100}", Map.of());
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        assertThat(page.json().path("returned_rows").asInt()).isEqualTo(20);
        assertThat(page.json().path("total_rows").asInt()).isEqualTo(120);
        var grouped = kernel.send("POST", "/api/v1/operations/result-query", operator, "{\"handle_id\": \"" + handle
                + "\", \"query\": {\"group_by\": [\"even\"], \"aggregates\": [{\"fn\": \"COUNT\"}]}}", Map.of());
        assertThat(grouped.json().path("rows").size()).isEqualTo(2);
        var foreign = kernel.send("POST", "/api/v1/operations/result-query", admin,
                "{\"handle_id\": \"" + handle + "\"}", Map.of());
        assertThat(foreign.status()).isEqualTo(404);
        assertThat(foreign.json().path("error").asText()).isEqualTo("handle_not_found");
    }

    @Test
    void dangerousOpsNeedAMatchingPreviewHashAndRequiresApprovalParks() {
        setUpTarget("a4");
        enableReads();
        assertThat(kernel.send("PATCH", "/api/v1/connectors/disp-1.x/operations/disp.item2.delete", admin,
                "{\"is_enabled\": true}", Map.of()).status()).isEqualTo(200);
        int before = HITS.size();
        JsonNode noHash = call(operator, "disp.item2.delete", "a4", "{\"name\": \"x\"}", "");
        assertThat(noHash.path("status").asText()).isEqualTo("denied");
        assertThat(noHash.path("extras").path("error_code").asText()).isEqualTo("preview_hash_required");

        var preview = kernel.send("POST", "/api/v1/operations/preview", operator, "{\"connector_id\": \"disp-1.x\", "
                + "\"op_id\": \"disp.item2.delete\", \"target\": \"a4\", \"params\": {\"name\": \"x\"}}", Map.of());
        assertThat(preview.status()).isEqualTo(200);
        JsonNode would = preview.json().path("result");
        assertThat(would.path("method").asText()).isEqualTo("DELETE");
        assertThat(would.path("path").asText()).isEqualTo("/items/x");
        String hash = would.path("preview_hash").asText();
        assertThat(hash).startsWith("sha256:");
        var broken = kernel.send("POST", "/api/v1/operations/preview", operator, "{\"connector_id\": \"disp-1.x\", "
                + "\"op_id\": \"disp.item2.delete\", \"target\": \"a4\", \"params\": {\"name\": \"preview-breaks\"}}",
                Map.of());
        assertThat(broken.json().path("status").asText()).as("a preview that throws is an error, not 'no preview'")
                .isEqualTo("error");
        assertThat(broken.json().path("extras").path("error_code").asText()).isEqualTo("connector_error");
        JsonNode unchecked = call(operator, "disp.item2.delete", "a4", "{\"name\": \"preview-breaks\"}",
                ", \"preview_hash\": \"" + hash + "\"");
        assertThat(unchecked.path("status").asText()).isEqualTo("denied");
        assertThat(unchecked.path("error").asText()).contains("the preview of this request failed now");

        JsonNode parked = call(operator, "disp.item2.delete", "a4", "{\"name\": \"x\"}",
                ", \"preview_hash\": \"" + hash + "\", \"work_ref\": \"CHG-9\"");
        assertThat(parked.path("status").asText()).isEqualTo("awaiting_approval");
        assertThat(parked.path("extras").path("approval_request_id").asText()).isNotEmpty();
        assertThat(HITS).as("a parked call does not reach the target").hasSize(before);

        assertThat(kernel.send("PATCH", "/api/v1/connectors/disp-1.x/operations/disp.item2.delete", admin,
                "{\"requires_approval\": false}", Map.of()).status()).isEqualTo(200);
        JsonNode wrong = call(operator, "disp.item2.delete", "a4", "{\"name\": \"y\"}", ", \"preview_hash\": \"" + hash + "\"");
        assertThat(wrong.path("status").asText()).as("the hash was for name=x").isEqualTo("denied");
        JsonNode done = call(operator, "disp.item2.delete", "a4", "{\"name\": \"x\"}", ", \"preview_hash\": \"" + hash + "\"");
        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("ok");
        assertThat(HITS.getLast()).isEqualTo("DELETE /items/x");
    }

    private String park(String requester, String target, String name) {
        assertThat(kernel.send("PATCH", "/api/v1/connectors/disp-1.x/operations/disp.item5.delete", admin,
                "{\"is_enabled\": true, \"safety_level\": \"caution\"}", Map.of()).status()).isEqualTo(200);
        JsonNode parked = call(requester, "disp.item5.delete", target, "{\"name\": \"" + name + "\"}",
                ", \"work_ref\": \"CHG-77\"");
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        return parked.path("extras").path("approval_request_id").asText();
    }

    private ApprovalsApi approvals(String token) {
        return new ApprovalsApi(GeneratedClient.of(kernel, token));
    }

    private static PostApprovalsByIdApproveRequest approval() {
        return new PostApprovalsByIdApproveRequest();
    }

    @Test
    @SuppressWarnings("unchecked")
    void approvalsAreFourEyesAndRunTheParkedCall() throws Exception {
        setUpTarget("ap1");
        enableReads();
        UUID id = UUID.fromString(park(admin, "ap1", "gone"));
        ApprovalsApi asOperator = approvals(operator);
        assertThat(asOperator.getApprovals(ApprovalsApi.APIGetApprovalsRequest.newBuilder().status("pending").build()))
                .extracting(Approval::getId).contains(id);
        Approval shown = asOperator.getApprovalsById(id, null);
        assertThat(shown.getResolved().get("params")).isEqualTo(Map.of("name", "gone"));
        assertThat(shown.getWorkRef()).isEqualTo("CHG-77");
        assertThat((Map<String, Object>) shown.getResolved().get("preview")).containsEntry("available", true)
                .containsEntry("method", "DELETE").containsEntry("path", "/items/gone");


        assertThatThrownBy(() -> approvals(admin).postApprovalsByIdApprove(id, null, approval()))
                .satisfies(e -> assertThat(GeneratedClient.errorCode(e, 403)).isEqualTo("four_eyes"));
        assertThatThrownBy(() -> asOperator.postApprovalsByIdApprove(id, null, approval()))
                .satisfies(e -> assertThat(GeneratedClient.errorCode(e, 403)).isEqualTo("insufficient_role"));

        int before = HITS.size();
        ApprovalsApi second = approvals(admin2);
        PostApprovalsByIdApprove200Response approved = second.postApprovalsByIdApprove(id, null,
                approval().reason("ticket checked"));
        assertThat(approved.getApproval().getStatus()).isEqualTo(Approval.StatusEnum.APPROVED);
        assertThat(approved.getResult().getStatus().getValue()).isEqualTo("ok");
        assertThat(HITS.subList(before, HITS.size())).containsExactly("DELETE /items/gone");
        Approval after = asOperator.getApprovalsById(id, null);
        assertThat(after.getDecidedBy()).isEqualTo("admin2-" + tenant);
        assertThat(after.getExecutionAuditId()).isNotNull();
        assertThatThrownBy(() -> second.postApprovalsByIdApprove(id, null, approval()))
                .satisfies(e -> assertThat(GeneratedClient.errorCode(e, 409)).isEqualTo("approval_not_pending"));

        List<JsonNode> audit = auditRows("ap1");
        assertThat(audit).extracting(r -> r.path("op_id").asText() + ":" + r.path("result_status").asText())
                .containsExactly("disp.item5.delete:awaiting_approval", "svc.approval.approve:ok", "disp.item5.delete:ok");
        assertThat(audit).allSatisfy(r -> assertThat(r.path("work_ref").asText()).isEqualTo("CHG-77"));
        assertThat(audit.get(2).path("principal").asText()).as("the execution is the requester's call")
                .isEqualTo("admin-" + tenant);

        Approval broken = asOperator.getApprovalsById(UUID.fromString(park(admin, "ap1", "preview-breaks")), null);
        assertThat(broken.getResolved().get("preview")).as("a preview that throws is said to have failed")
                .isEqualTo(Map.of("available", false, "why", "the connector's preview failed "
                        + "(connector_error); approve on the params alone or ask the requester"));
    }

    @Test
    void rejectExpiryAndBreakGlass() throws Exception {
        setUpTarget("ap2");
        enableReads();
        ApprovalsApi asAdmin = approvals(admin);
        UUID rejected = UUID.fromString(park(operator, "ap2", "keep"));
        assertThat(asAdmin.postApprovalsByIdReject(rejected, null, new PostApprovalsByIdRejectRequest().reason("no"))
                .getStatus()).isEqualTo(Approval.StatusEnum.REJECTED);
        assertThatThrownBy(() -> approvals(issuer.token("x", tenant, "tenant_admin")).postApprovalsByIdApprove(rejected,
                null, approval())).satisfies(e -> GeneratedClient.errorCode(e, 409));

        String expiring = park(operator, "ap2", "late");
        kernel.jdbc().update(
                "UPDATE governance_approvals SET expires_at = now() - interval '1 second' WHERE id = ?::uuid", expiring);
        UUID late = UUID.fromString(expiring);
        assertThat(approvals(operator).getApprovalsById(late, null).getStatus()).isEqualTo(Approval.StatusEnum.EXPIRED);
        assertThatThrownBy(() -> asAdmin.postApprovalsByIdApprove(late, null, approval()))
                .satisfies(e -> GeneratedClient.errorCode(e, 409));

        UUID glass = UUID.fromString(park(admin, "ap2", "urgent"));
        assertThatThrownBy(() -> asAdmin.postApprovalsByIdApprove(glass, null, approval().breakGlass(true)))
                .satisfies(e -> GeneratedClient.errorCode(e, 422));
        PostApprovalsByIdApprove200Response broke = asAdmin.postApprovalsByIdApprove(glass, null,
                approval().breakGlass(true).reason("outage INC-1"));
        assertThat(broke.getApproval().getBreakGlass()).isTrue();
        assertThat(auditRows("ap2").stream().filter(a -> a.path("op_id").asText().equals("svc.approval.approve"))
                .anyMatch(a -> a.path("extras").path("break_glass").asBoolean())).isTrue();
        assertThatThrownBy(() -> approvals(operator).getApprovals(ApprovalsApi.APIGetApprovalsRequest.newBuilder()
                .status("bogus").build())).satisfies(e -> GeneratedClient.errorCode(e, 422));
        assertThatThrownBy(() -> approvals(operator).getApprovalsById(UUID.randomUUID(), null))
                .satisfies(e -> GeneratedClient.errorCode(e, 404));
    }

    @Test
    void theCliDrivesApprovals() throws Exception {
        setUpTarget("ap3");
        enableReads();
        String id = park(operator, "ap3", "cli-item");
        CliRunner adm = kernel.cli(admin);
        CliRunner.Result list = adm.run("approvals", "list", "--status", "pending");
        assertThat(list.out()).contains(id, "disp.item5.delete", "CHG-77");
        assertThat(adm.run("approvals", "show", id).out()).contains("PENDING", "cli-item");
        CliRunner.Result ok = adm.run("approvals", "approve", id, "--reason", "looks fine");
        assertThat(ok.exitCode()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("APPROVED", "result: ok", "cli-item");
        CliRunner.Result again = adm.run("approvals", "approve", id);
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("approval_not_pending");
        assertThat(adm.run("approvals", "approve", id, "--break-glass").exitCode()).isEqualTo(2);
        CliRunner.Result rejected = adm.run("approvals", "reject", park(operator, "ap3", "other"), "--reason", "no");
        assertThat(rejected.out()).contains("REJECTED", "no");
    }

    private AuditApi audit(String token) {
        return new AuditApi(GeneratedClient.of(kernel, token));
    }

    private static AuditApi.APIGetAuditRequest.Builder query() {
        return AuditApi.APIGetAuditRequest.newBuilder();
    }

    @Test
    void theAuditLogAnswersEveryFilter() throws Exception {
        setUpTarget("au1");
        call(operator, "disp.item0.list", "au1", "{}", "");
        enableReads();
        call(operator, "disp.item0.list", "au1", "{\"count\": 2}", ", \"work_ref\": \"CHG-A\"");
        call(operator, "disp.item1.get", "au1", "{\"name\": \"q\"}", "");
        AuditApi asOperator = audit(operator);
        assertThat(asOperator.getAudit(query().resultStatus("denied").target("au1").build()).getRows()).hasSize(1);
        assertThat(asOperator.getAudit(query().opId("disp.item0.*").target("au1").build()).getRows()).hasSize(2);
        assertThat(asOperator.getAudit(query().workRef("CHG-A").build()).getRows()).hasSize(1);
        assertThat(asOperator.getAudit(query().principal("OP-").since("1h").target("au1").build()).getRows())
                .as("partial, case-insensitive principal").hasSize(3);
        assertThat(asOperator.getAudit(query().opId("disp_item0%").target("au1").build()).getRows())
                .as("LIKE wildcards in the glob are literal").isEmpty();

        AuditPage first = asOperator.getAudit(query().target("au1").limit(2).build());
        assertThat(first.getRows()).hasSize(2);
        AuditPage second = asOperator.getAudit(query().target("au1").limit(2).cursor(first.getNextCursor()).build());
        assertThat(second.getRows()).hasSize(1);
        assertThat(second.getNextCursor()).isNull();

        String id = first.getRows().get(0).getAuditId().toString();
        assertThat(asOperator.getAuditByAuditId(UUID.fromString(id), null).getOpId()).isEqualTo("disp.item1.get");
        assertThat(kernel.get("/api/v1/audit/who-touched/au1", operator).json().get(0).path("calls").asInt()).isEqualTo(3);
        assertThat(asOperator.getAuditMine(null, null, null, null).getRows()).hasSizeGreaterThanOrEqualTo(3);
        assertThat(audit(admin).getAuditMine(null, null, null, null).getRows()).extracting(AuditRow::getPrincipal)
                .doesNotContain("op-" + tenant);

        assertThat(kernel.get("/api/v1/audit/reflex", operator).status()).isEqualTo(403);
        JsonNode reflex = kernel.get("/api/v1/audit/reflex?since=1h", admin).json();
        assertThat(reflex.path("outcomes").path("denied").asInt()).isEqualTo(1);
        assertThat(reflex.path("top_operations").get(0).path("name").asText()).startsWith("disp.item");
        assertThat(asOperator.getAudit(query().opClass("audit_query").build()).getRows())
                .as("queries of the log are audited").isNotEmpty();
        assertThatThrownBy(() -> asOperator.getAudit(query().since("yesterday").build()))
                .satisfies(e -> GeneratedClient.errorCode(e, 422));
        assertThatThrownBy(() -> asOperator.getAudit(query().limit(1001).build()))
                .satisfies(e -> GeneratedClient.errorCode(e, 422));
        assertThatThrownBy(() -> asOperator.getAudit(query().cursor("garbage").build()))
                .satisfies(e -> GeneratedClient.errorCode(e, 422));
        assertThat(kernel.get("/api/v1/audit/sessions/" + UUID.randomUUID(), operator).json().size()).isZero();
        AuditApi otherTenant = audit(issuer.token("x", UUID.randomUUID(), "tenant_admin"));
        assertThat(otherTenant.getAudit(query().target("au1").build()).getRows())
                .as("another tenant sees none of it").isEmpty();

        CliRunner cli = kernel.cli(operator);
        CliRunner.Result q = cli.run("audit", "query", "--target", "au1", "--result-status", "ok", "--since", "2w");
        assertThat(q.exitCode()).as(q.toString()).isZero();
        assertThat(q.out()).contains("disp.item0.list", "disp.item1.get", "CHG-A");
        assertThat(cli.run("audit", "show", id).out()).contains("params_hash");
        assertThat(cli.run("audit", "who-touched", "au1").out()).contains("op-" + tenant);
        assertThat(cli.run("audit", "my-recent").out()).contains("disp.item1.get");
        assertThat(cli.run("audit", "reflex").exitCode()).isEqualTo(3);
    }

    @Test
    void agentsAreBoundedByGrantsSafetyLevelsAndTheKillSwitch() throws Exception {
        setUpTarget("ag1");
        enableReads();
        for (String op : List.of("disp.item5.delete", "disp.item2.delete")) {
            assertThat(kernel.send("PATCH", "/api/v1/connectors/disp-1.x/operations/" + op, admin,
                    "{\"is_enabled\": true, \"requires_approval\": false" + (op.contains("5") ? ", \"safety_level\": \"caution\"" : "")
                            + "}", Map.of()).status()).isEqualTo(200);
        }
        String name = "bot-" + tenant;
        var registered = kernel.send("POST", "/api/v1/agent-principals", admin, "{\"name\": \"" + name + "\"}", Map.of());
        assertThat(registered.status()).as(registered.body()).isEqualTo(201);
        assertThat(registered.json().path("owner_sub").asText()).isEqualTo("admin-" + tenant);
        String agent = issuer.token(c -> c.subject("bot-sub-" + tenant).claim("azp", name)
                .claim("tenant_id", tenant.toString()).claim("tenant_role", "operator"));
        assertThat(kernel.get("/api/v1/whoami", agent).json().path("principal_kind").asText()).isEqualTo("agent");

        assertThat(call(agent, "disp.item0.list", "ag1", "{}", "").path("status").asText())
                .as("safe without a grant: auto-execute").isEqualTo("ok");
        assertThat(call(agent, "disp.item5.delete", "ag1", "{\"name\": \"a\"}", "").path("status").asText())
                .as("caution without a grant: needs approval").isEqualTo("awaiting_approval");
        JsonNode dangerous = call(agent, "disp.item2.delete", "ag1", "{\"name\": \"a\"}", "");
        assertThat(dangerous.path("status").asText()).isEqualTo("denied");
        assertThat(dangerous.path("extras").path("error_code").asText()).isEqualTo("denied_by_safety_level");

        String sub = "bot-sub-" + tenant;
        var deny = kernel.send("POST", "/api/v1/agent-grants", admin, "{\"principal\": \"" + sub + "\", "
                + "\"op\": \"disp.item0.*\", \"verdict\": \"deny\"}", Map.of());
        assertThat(deny.status()).as(deny.body()).isEqualTo(201);
        assertThat(call(agent, "disp.item0.list", "ag1", "{}", "").path("extras").path("error_code").asText())
                .isEqualTo("denied_by_grant");
        assertThat(kernel.send("POST", "/api/v1/agent-grants", admin, "{\"principal\": \"" + sub + "\", "
                + "\"op\": \"disp.item5.delete\", \"verdict\": \"auto-execute\", \"target\": \""
                + kernel.get("/api/v1/targets/ag1", admin).json().path("id").asText() + "\"}", Map.of()).status())
                .isEqualTo(201);
        int before = HITS.size();
        assertThat(call(agent, "disp.item5.delete", "ag1", "{\"name\": \"b\"}", "").path("status").asText())
                .isEqualTo("ok");
        assertThat(HITS.subList(before, HITS.size())).containsExactly("DELETE /items/b");

        var elevation = kernel.send("POST", "/api/v1/agent-grants/elevate", admin, "{\"principal\": \"" + sub + "\", "
                + "\"op\": \"disp.item2.delete\", \"verdict\": \"needs-approval\", \"expires\": \""
                + java.time.Instant.now().plusSeconds(2) + "\"}", Map.of());
        assertThat(elevation.status()).as(elevation.body()).isEqualTo(201);
        assertThat(call(agent, "disp.item2.delete", "ag1", "{\"name\": \"c\"}", "").path("extras").path("error_code")
                .asText()).as("the elevation applies: no longer denied by safety level, now held by the preview rule")
                .isEqualTo("preview_hash_required");
        Thread.sleep(2500);
        assertThat(call(agent, "disp.item2.delete", "ag1", "{\"name\": \"c\"}", "").path("extras").path("error_code")
                .asText()).as("an expired grant is ignored").isEqualTo("denied_by_safety_level");
        assertThat(kernel.send("POST", "/api/v1/agent-grants/elevate", admin, "{\"principal\": \"x\", \"op\": \"*\", "
                + "\"verdict\": \"deny\"}", Map.of()).status()).as("elevations need expires").isEqualTo(422);
        JsonNode listed = kernel.get("/api/v1/agent-grants?principal=" + sub, operator).json();
        assertThat(listed.size()).as("the expired elevation is hidden").isEqualTo(2);
        assertThat(kernel.get("/api/v1/agent-grants?principal=" + sub + "&include_expired=true", operator).json().size())
                .isEqualTo(3);

        var revoked = kernel.send("POST", "/api/v1/agent-principals/" + name + "/revoke", admin, null, Map.of());
        assertThat(revoked.json().path("revoked").asBoolean()).isTrue();
        var killed = kernel.send("POST", "/api/v1/operations/call", agent, "{\"connector_id\": \"disp-1.x\", "
                + "\"op_id\": \"disp.item0.list\", \"target\": \"ag1\"}", Map.of());
        assertThat(killed.status()).as("the kill switch is effective on the next call").isEqualTo(403);
        assertThat(killed.json().path("error").asText()).isEqualTo("principal_revoked");
        assertThat(kernel.get("/api/v1/agent-principals", operator).json().size()).isZero();
        assertThat(kernel.get("/api/v1/agent-principals?include_revoked=true", operator).json().size()).isEqualTo(1);
    }

    /**
     * Security review D5/D8/D10/D12: the kill switch withdraws what the agent parked and a released call
     * is checked against the principal and its grants again; only people decide (agents are refused on
     * approvals and grants) and an agent's owner is not its four-eyes approver; approvers never see
     * secret-looking params; every transition's audit row commits with it.
     */
    @Test
    void theKillSwitchReachesParkedCallsAndOnlyOtherPeopleDecide() throws Exception {
        setUpTarget("ks1");
        enableReads();
        assertThat(kernel.send("PATCH", "/api/v1/connectors/disp-1.x/operations/disp.item5.delete", admin,
                "{\"is_enabled\": true, \"requires_approval\": true, \"safety_level\": \"caution\"}", Map.of())
                .status()).isEqualTo(200);
        String name = "ks-bot-" + tenant;
        assertThat(kernel.send("POST", "/api/v1/agent-principals", admin, "{\"name\": \"" + name + "\"}", Map.of())
                .status()).isEqualTo(201);
        String sub = "ks-bot-sub-" + tenant;
        String agent = issuer.token(c -> c.subject(sub).claim("azp", name).claim("tenant_id", tenant.toString())
                .claim("tenant_role", "tenant_admin"));
        assertThat(kernel.send("POST", "/api/v1/agent-grants", admin, "{\"principal\": \"" + sub + "\", "
                + "\"op\": \"disp.item5.*\", \"verdict\": \"auto-execute\"}", Map.of()).status()).isEqualTo(201);
        String secret = "hunter2-" + UUID.randomUUID();
        String second = issuer.token("ks-admin2-" + tenant, tenant, "tenant_admin");

        // D8: the approver sees the params with secret-looking values hidden
        JsonNode parked = call(agent, "disp.item5.delete", "ks1", "{\"name\": \"k1\", \"password\": \"" + secret
                + "\", \"nested\": {\"api_key\": \"" + secret + "\"}}", "");
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        String first = parked.path("extras").path("approval_request_id").asText();
        var shown = kernel.get("/api/v1/approvals/" + first, admin);
        assertThat(shown.body()).doesNotContain(secret);
        assertThat(shown.json().path("resolved").path("params").path("password").asText()).isEqualTo("***REDACTED***");
        assertThat(shown.json().path("resolved").path("params").path("name").asText()).isEqualTo("k1");
        assertThat(kernel.get("/api/v1/approvals?status=pending", admin).body()).doesNotContain(secret);

        // D12: an agent cannot decide, whatever role its token claims; the agent's owner is not a second person
        var byAgent = kernel.send("POST", "/api/v1/approvals/" + first + "/approve", agent, "{}", Map.of());
        assertThat(byAgent.status()).isEqualTo(403);
        assertThat(byAgent.json().path("error").asText()).isEqualTo("human_required");
        var grantByAgent = kernel.send("POST", "/api/v1/agent-grants", agent, "{\"principal\": \"" + sub + "\", "
                + "\"op\": \"*\", \"verdict\": \"auto-execute\"}", Map.of());
        assertThat(grantByAgent.status()).isEqualTo(403);
        assertThat(grantByAgent.json().path("error").asText()).isEqualTo("human_required");
        var byOwner = kernel.send("POST", "/api/v1/approvals/" + first + "/approve", admin, "{}", Map.of());
        assertThat(byOwner.status()).isEqualTo(403);
        assertThat(byOwner.json().path("error").asText()).isEqualTo("four_eyes");
        assertThat(byOwner.json().path("message").asText()).contains("owner of agent principal");

        // a second person approves: the real params reach the target
        int before = HITS.size();
        var approved = kernel.send("POST", "/api/v1/approvals/" + first + "/approve", second, "{}", Map.of());
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        assertThat(approved.json().path("result").path("status").asText()).isEqualTo("ok");
        assertThat(HITS.subList(before, HITS.size())).containsExactly("DELETE /items/k1");

        // D5: a grant revoked after parking stops the release
        JsonNode again = call(agent, "disp.item5.delete", "ks1", "{\"name\": \"k2\"}", "");
        String secondId = again.path("extras").path("approval_request_id").asText();
        JsonNode grants = kernel.get("/api/v1/agent-grants?principal=" + sub, admin).json();
        for (JsonNode g : grants) {
            assertThat(kernel.send("POST", "/api/v1/agent-grants/" + g.path("id").asText() + "/revoke", admin, null,
                    Map.of()).status()).isEqualTo(200);
        }
        assertThat(kernel.send("POST", "/api/v1/agent-grants", admin, "{\"principal\": \"" + sub + "\", "
                + "\"op\": \"disp.item5.*\", \"verdict\": \"deny\"}", Map.of()).status()).isEqualTo(201);
        before = HITS.size();
        var denied = kernel.send("POST", "/api/v1/approvals/" + secondId + "/approve", second, "{}", Map.of());
        assertThat(denied.status()).as(denied.body()).isEqualTo(200);
        assertThat(denied.json().path("result").path("status").asText()).isEqualTo("denied");
        assertThat(denied.json().path("result").path("extras").path("error_code").asText()).isEqualTo("denied_by_grant");
        assertThat(HITS.size()).as("the target was not called").isEqualTo(before);

        // D5: the kill switch withdraws what the agent parked
        for (JsonNode g : kernel.get("/api/v1/agent-grants?principal=" + sub, admin).json()) {
            kernel.send("POST", "/api/v1/agent-grants/" + g.path("id").asText() + "/revoke", admin, null, Map.of());
        }
        assertThat(kernel.send("POST", "/api/v1/agent-grants", admin, "{\"principal\": \"" + sub + "\", "
                + "\"op\": \"disp.item5.*\", \"verdict\": \"auto-execute\"}", Map.of()).status()).isEqualTo(201);
        // the approvers are told when the kill switch withdraws what the agent parked
        assertThat(kernel.put("/api/v1/tenants/current/approval-notifications", admin,
                Map.of("mail_recipients", "approvers@example.com")).status()).isEqualTo(200);
        String third = call(agent, "disp.item5.delete", "ks1", "{\"name\": \"k3\"}", "").path("extras")
                .path("approval_request_id").asText();
        assertThat(kernel.send("POST", "/api/v1/agent-principals/" + name + "/revoke", admin, null, Map.of()).status())
                .isEqualTo(200);
        JsonNode withdrawn = kernel.get("/api/v1/approvals/" + third, admin).json();
        assertThat(withdrawn.path("status").asText()).isEqualTo("rejected");
        assertThat(withdrawn.path("reason").asText()).contains("kill switch");
        assertThat(kernel.jdbc().query("SELECT event FROM notification_outbox WHERE approval_id = ?::uuid "
                + "ORDER BY created_at", rs -> rs.getString(1), third)).containsExactly("parked", "withdrawn");
        before = HITS.size();
        assertThat(kernel.send("POST", "/api/v1/approvals/" + third + "/approve", second, "{}", Map.of()).status())
                .isEqualTo(409);
        assertThat(HITS.size()).isEqualTo(before);

        // D10: each transition has its audit row, linked to the request
        Jdbc jdbc = kernel.jdbc();
        assertThat(jdbc.query("SELECT op_id FROM audit_rows WHERE tenant_id = ? AND approval_request_id = ? "
                + "AND op_id LIKE 'svc.approval.%'", rs -> rs.getString(1), tenant, UUID.fromString(first)))
                .containsExactly("svc.approval.approve");
        assertThat(jdbc.query("SELECT extras->>'pending_approvals_withdrawn' FROM audit_rows WHERE tenant_id = ? "
                + "AND op_id = 'svc.agent_principals.revoke'", rs -> rs.getString(1), tenant)).containsExactly("1");
        assertThat(jdbc.query("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND extras::text LIKE ?",
                rs -> rs.getLong(1), tenant, "%" + secret + "%")).containsExactly(0L);
    }

    /** Security review D22: a run that takes longer than its lease keeps it by heartbeat; the reaper leaves it. */
    @Test
    void aLongRunKeepsItsLeaseAndOnlyADeadKernelsRunIsReaped() throws Exception {
        Jdbc jdbc = kernel.jdbc();
        AsyncRuns runs = AsyncRuns.withLease(jdbc, java.time.Duration.ofMillis(600));
        CallRequest req = new CallRequest("disp-1.x", "disp.item0.list", "t", Map.of(), java.util.Optional.empty(),
                java.util.Optional.empty(), java.util.Optional.empty());
        var run = runs.start(tenant, "long-runner", req, "h", () -> {
            try {
                Thread.sleep(2_500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new ResultEnvelope(ResultEnvelope.OK, "disp.item0.list", "done", null, 2500, Map.of());
        });
        for (int i = 0; i < 10; i++) {
            runs.reapOrphans();
            Thread.sleep(200);
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!runs.show(tenant, "long-runner", run.handle()).status().equals("succeeded")) {
            assertThat(System.nanoTime()).as("the long run finishes as itself, not reaped").isLessThan(deadline);
            Thread.sleep(100);
        }
        // a run whose kernel died: its lease is not renewed and it is failed, never re-run
        jdbc.update("INSERT INTO dispatch_runs (id, tenant_id, principal, connector_id, op_id, target, params_hash, status, "
                + "lease_until) VALUES (?, ?, 'long-runner', 'disp-1.x', 'disp.item0.list', 't', 'h', 'running', "
                + "now() - interval '1 second')", UUID.randomUUID(), tenant);
        assertThat(runs.reapOrphans()).isGreaterThanOrEqualTo(1);
    }

    /**
     * Security review D9: a row left started by a kernel that died mid-dispatch is closed as outcome_unknown. This
     * checks the reaper's threshold; that the kernel runs it by itself after a crash is CrashRecoveryIT's (a)/(b).
     */
    @Test
    void auditRowsLeftStartedAreClosedAsOutcomeUnknown() {
        Jdbc jdbc = kernel.jdbc();
        UUID stale = UUID.randomUUID();
        UUID fresh = UUID.randomUUID();
        // 20 minutes: older than the 10 used here, younger than this kernel's own reaper threshold (the 30-minute
        // composite timeout + 5), so only the call below can close it and its count is exact
        for (UUID id : List.of(stale, fresh)) {
            jdbc.update("INSERT INTO audit_rows (id, tenant_id, principal, principal_kind, op_class, op_id, result_status, "
                    + "occurred_at) VALUES (?, ?, 'p', 'human', 'write', 'disp.item5.delete', 'started', now() - "
                    + "make_interval(mins => ?))", id, tenant, id.equals(stale) ? 20 : 0);
        }
        assertThat(new dev.backplane.kernel.audit.AuditLog(jdbc).reapStarted(java.time.Duration.ofMinutes(10)))
                .as("rows closed: the stale one (other tests leave none started for 10 minutes)").isEqualTo(1);
        assertThat(jdbc.query("SELECT result_status || '/' || coalesce(error_code, '-') FROM audit_rows WHERE id = ?",
                rs -> rs.getString(1), stale)).containsExactly("error/outcome_unknown");
        assertThat(jdbc.query("SELECT result_status FROM audit_rows WHERE id = ?", rs -> rs.getString(1), fresh))
                .as("a dispatch still in flight keeps its row").containsExactly("started");
    }

    @Test
    void theCliManagesAgentPrincipalsAndGrants() throws Exception {
        CliRunner adm = kernel.cli(admin);
        assertThat(adm.run("agent-principal", "register", "cli-bot").out()).contains("registered agent principal cli-bot");
        assertThat(adm.run("agent-principal", "list").out()).contains("cli-bot", "svc-agent:cli-bot", "REGISTERED BY", "active");
        CliRunner.Result created = adm.run("agent", "grant", "create", "--principal", "cli-bot-sub", "--op", "disp.*",
                "--verdict", "needs-approval");
        assertThat(created.exitCode()).as(created.toString()).isZero();
        String id = created.out().split("\\s+")[0];
        assertThat(adm.run("agent", "grant", "show", id).out()).contains("needs-approval", "disp.*");
        assertThat(adm.run("agent", "grant", "elevate", "--principal", "p", "--op", "*", "--verdict", "deny").exitCode())
                .isEqualTo(2);
        assertThat(adm.run("agent", "grant", "elevate", "--principal", "cli-bot-sub", "--op", "disp.item0.*",
                "--verdict", "auto-execute", "--expires", java.time.Instant.now().plusSeconds(3600).toString()).out())
                .contains("[elevation]");
        assertThat(adm.run("agent", "grant", "list", "--principal", "cli-bot-sub").out()).contains(id);
        assertThat(adm.run("agent", "grant", "revoke", id).exitCode()).isEqualTo(2);
        assertThat(adm.run("agent", "grant", "revoke", id, "--confirm").out()).contains("[REVOKED]");
        assertThat(adm.run("agent", "grant", "create", "--principal", "x", "--op", "*", "--verdict", "maybe").exitCode())
                .isEqualTo(1);
        assertThat(adm.run("agent-principal", "revoke", "cli-bot").out()).contains("revoked");
        assertThat(adm.run("agent-principal", "list", "--include-revoked").out()).contains("REVOKED");
    }

    @Test
    void servicePrincipalsNeedExactGrants() {
        setUpTarget("sp1");
        enableReads();
        String service = issuer.token(c -> c.subject("svc-sub-" + tenant).claim("preferred_username", "service-account-ci")
                .claim("tenant_id", tenant.toString()).claim("tenant_role", "operator"));
        assertThat(kernel.get("/api/v1/whoami", service).json().path("principal_kind").asText()).isEqualTo("service");
        JsonNode denied = call(service, "disp.item0.list", "sp1", "{}", "");
        assertThat(denied.path("extras").path("error_code").asText()).isEqualTo("no_service_grant");

        String base = "{\"principal\": \"svc-sub-" + tenant + "\", \"connector_id\": \"disp-1.x\", ";
        assertThat(kernel.send("POST", "/api/v1/service-principals/grants", admin, base
                + "\"op_id\": \"disp.item0.*\", \"reason\": \"r\", \"target_product\": \"disp\"}", Map.of()).status())
                .as("globs refused").isEqualTo(422);
        assertThat(kernel.send("POST", "/api/v1/service-principals/grants", admin, "{\"principal\": \""
                + "p".repeat(100_000) + "\", \"connector_id\": \"disp-1.x\", \"op_id\": \"disp.item0.list\", "
                + "\"reason\": \"r\", \"target_product\": \"disp\"}", Map.of()).status())
                .as("an over-long principal is refused, not a 500 from its index").isEqualTo(422);
        assertThat(kernel.send("POST", "/api/v1/agent-grants", admin, "{\"principal\": \"" + "p".repeat(100_000)
                + "\", \"op\": \"disp.*\", \"verdict\": \"deny\"}", Map.of()).status()).isEqualTo(422);
        assertThat(kernel.send("POST", "/api/v1/service-principals/grants", admin, base
                + "\"op_id\": \"disp.item2.delete\", \"reason\": \"r\", \"target_product\": \"disp\"}", Map.of())
                .status()).as("delete-shaped refused").isEqualTo(422);
        assertThat(kernel.send("POST", "/api/v1/service-principals/grants", admin, base
                + "\"op_id\": \"disp.item0.list\", \"reason\": \"r\"}", Map.of()).status())
                .as("targetless is not a wildcard").isEqualTo(422);
        assertThat(kernel.send("POST", "/api/v1/service-principals/grants", admin, base
                + "\"op_id\": \"disp.item0.list\", \"target_product\": \"disp\"}", Map.of()).status())
                .as("reason required").isEqualTo(422);
        var created = kernel.send("POST", "/api/v1/service-principals/grants", admin, base
                + "\"op_id\": \"disp.item0.list\", \"reason\": \"nightly inventory\", \"target_name_pattern\": \"sp*\"}",
                Map.of());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(call(service, "disp.item0.list", "sp1", "{}", "").path("status").asText()).isEqualTo("ok");
        assertThat(call(service, "disp.item1.get", "sp1", "{\"name\": \"a\"}", "").path("status").asText())
                .as("exact op only").isEqualTo("denied");
        String id = created.json().path("id").asText();
        assertThat(kernel.send("POST", "/api/v1/service-principals/grants/" + id + "/revoke", admin, null, Map.of())
                .json().path("revoked").asBoolean()).isTrue();
        assertThat(call(service, "disp.item0.list", "sp1", "{}", "").path("status").asText()).isEqualTo("denied");
        assertThat(kernel.get("/api/v1/service-principals/grants", operator).json().size()).isZero();
        assertThat(kernel.get("/api/v1/service-principals/grants?include_revoked=true", operator).json().size()).isEqualTo(1);

        CliRunner adm = kernel.cli(admin);
        CliRunner.Result made = adm.run("service-principals", "grants", "create", "--principal", "svc-sub-" + tenant,
                "--connector-id", "disp-1.x", "--op-id", "disp.item1.get", "--reason", "lookups", "--target-product", "disp");
        assertThat(made.exitCode()).as(made.toString()).isZero();
        assertThat(made.out()).contains("disp.item1.get", "product=disp", "lookups");
        String gid = made.out().split("\\s+")[0];
        assertThat(adm.run("service-principals", "grants", "list").out()).contains(gid);
        assertThat(adm.run("service-principals", "grants", "show", gid).out()).contains("lookups");
        assertThat(adm.run("service-principals", "grants", "revoke", gid).exitCode()).isEqualTo(2);
        assertThat(adm.run("service-principals", "grants", "revoke", gid, "--confirm").out()).contains("[REVOKED]");
        assertThat(adm.run("service-principals", "grants", "create", "--principal", "p", "--connector-id", "disp-1.x",
                "--op-id", "disp.*", "--reason", "r", "--target-product", "disp").exitCode()).isEqualTo(1);
    }

    private JsonNode awaitRun(String token, String handle) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            JsonNode run = kernel.get("/api/v1/operations/runs/" + handle, token).json();
            if (!run.path("status").asText().equals("running")) {
                return run;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("run " + handle + " did not finish");
    }

    @Test
    void asyncCallsAndApprovalsAnswerWithAHandle() throws Exception {
        setUpTarget("as1");
        enableReads();
        var started = kernel.send("POST", "/api/v1/operations/call", operator, "{\"connector_id\": \"disp-1.x\", "
                + "\"op_id\": \"disp.item0.list\", \"target\": \"as1\", \"params\": {\"count\": 4}, \"async\": true, "
                + "\"work_ref\": \"CHG-ASYNC\"}", Map.of());
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        String handle = started.json().path("handle").asText();
        assertThat(started.json().path("status_url").asText()).isEqualTo("/api/v1/operations/runs/" + handle);
        JsonNode done = awaitRun(operator, handle);
        assertThat(done.path("status").asText()).isEqualTo("succeeded");
        assertThat(done.path("result").path("result").size()).isEqualTo(4);
        assertThat(done.path("work_ref").asText()).isEqualTo("CHG-ASYNC");
        assertThat(kernel.get("/api/v1/operations/runs/" + handle, admin).status()).as("someone else's run").isEqualTo(404);
        Jdbc jdbc = kernel.jdbc();
        assertThat(jdbc.queryOne("SELECT count(*) FROM dispatch_runs WHERE id = ?::uuid AND result::text LIKE '%count%'",
                rs -> rs.getLong(1), handle).orElseThrow()).as("raw params are not stored on the run").isZero();

        String id = park(operator, "as1", "later");
        var approved = kernel.send("POST", "/api/v1/approvals/" + id + "/approve", admin, "{\"async\": true}", Map.of());
        assertThat(approved.status()).as(approved.body()).isEqualTo(202);
        JsonNode run = awaitRun(admin, approved.json().path("result").path("handle").asText());
        assertThat(run.path("status").asText()).isEqualTo("succeeded");
        assertThat(run.path("result").path("result").path("deleted").asText()).isEqualTo("later");

        UUID orphan = UUID.randomUUID();
        jdbc.update("INSERT INTO dispatch_runs (id, tenant_id, principal, connector_id, op_id, target, params_hash, status, "
                + "lease_until) VALUES (?, ?, ?, 'disp-1.x', 'disp.item0.list', 'as1', 'x', 'running', now() - interval "
                + "'1 minute')", orphan, tenant, "op-" + tenant);
        assertThat(new AsyncRuns(jdbc, java.time.Duration.ofSeconds(30)).reapOrphans()).isGreaterThanOrEqualTo(1);
        JsonNode reapedRun = kernel.get("/api/v1/operations/runs/" + orphan, operator).json();
        assertThat(reapedRun.path("status").asText()).isEqualTo("failed");
        assertThat(reapedRun.path("result").path("extras").path("error_code").asText()).isEqualTo("run_orphaned");
    }

    @Test
    void typedAndCompositeOperationsCannotBePreviewedButCanBeCalled() {
        setUpTarget("ty1");
        enableReads();
        int auditBefore = auditRows("ty1").size();
        for (String op : List.of("disp.status.typed", "disp.sync.composite")) {
            var preview = kernel.send("POST", "/api/v1/operations/preview", operator, "{\"connector_id\": \"disp-1.x\", "
                    + "\"op_id\": \"" + op + "\", \"target\": \"ty1\"}", Map.of());
            assertThat(preview.status()).isEqualTo(200);
            assertThat(preview.json().path("status").asText()).as(op).isEqualTo("unavailable");
        }
        assertThat(auditRows("ty1")).as("a preview writes no audit row").hasSize(auditBefore);
        JsonNode typed = call(operator, "disp.status.typed", "ty1", "{}", "");
        assertThat(typed.path("status").asText()).as(typed.toString()).isEqualTo("ok");
        assertThat(call(operator, "disp.sync.composite", "ty1", "{}", "").path("status").asText())
                .as("a write is not enabled by enable-reads").isEqualTo("denied");
    }

    @Test
    void auditIsFailClosed() {
        setUpTarget("a5");
        enableReads();
        Jdbc jdbc = kernel.jdbc();
        jdbc.update("ALTER TABLE audit_rows ADD CONSTRAINT audit_broken CHECK (false) NOT VALID");
        int before = HITS.size();
        try {
            var r = kernel.send("POST", "/api/v1/operations/call", operator, "{\"connector_id\": \"disp-1.x\", "
                    + "\"op_id\": \"disp.item0.list\", \"target\": \"a5\", \"params\": {}}", Map.of());
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.json().path("error").asText()).isEqualTo("audit_unavailable");
            assertThat(HITS).as("the target is never called without an audit row").hasSize(before);
        } finally {
            jdbc.update("ALTER TABLE audit_rows DROP CONSTRAINT audit_broken");
        }
    }

    @Test
    void theCliCallsPreviewsAndQueries() throws Exception {
        setUpTarget("a7");
        enableReads();
        CliRunner cli = kernel.cli(operator);
        CliRunner.Result big = cli.run("operation", "call", "disp-1.x", "disp.item0.list", "--target", "a7",
                "--params", "{\"count\": 75}");
        assertThat(big.exitCode()).as(big.toString()).isZero();
        assertThat(big.out()).contains("item-0").contains("of 75 rows; more: svc operation result-query");
        String handle = big.out().replaceAll("(?s).*result-query (\\S+)\\).*", "$1");
        CliRunner.Result q = cli.run("operation", "result-query", handle, "--where", "index >= 70", "--order-by",
                "index desc", "--select", "name");
        assertThat(q.exitCode()).as(q.toString()).isZero();
        assertThat(q.out()).startsWith("{\"name\":\"item-74\"}").contains("5 row(s)");
        CliRunner.Result g = cli.run("operation", "result-query", handle, "--group-by", "even", "--aggregate", "count",
                "--aggregate", "max(index) as top");
        assertThat(g.out()).contains("\"top\":74").contains("\"count\":38");

        Path params = TempDirs.file("params", ".json");
        Files.writeString(params, "{\"name\": \"zz\"}");
        CliRunner.Result denied = cli.run("operation", "call", "disp-1.x", "disp.item5.delete", "--target", "a7",
                "--params", "@" + params);
        assertThat(denied.exitCode()).as(denied.toString()).isEqualTo(3);
        CliRunner.Result preview = cli.run("operation", "preview", "disp-1.x", "disp.item5.delete", "--target", "a7",
                "--params", "@" + params);
        assertThat(preview.out()).contains("DELETE /items/zz").contains("preview_hash sha256:");
        CliRunner.Result bad = cli.run("operation", "call", "disp-1.x", "disp.item1.get", "--target", "a7",
                "--params", "{\"name\": 1}");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.out()).contains("invalid_params");
        assertThat(cli.run("operation", "call", "disp-1.x", "disp.item1.get", "--params", "{}").exitCode())
                .as("--target is required").isEqualTo(2);
        assertThat(cli.run("operation", "call", "disp-1.x", "disp.item1.get", "--target", "a7", "--params", "[1]")
                .exitCode()).isEqualTo(2);
    }

    @Test
    void resolutionErrorsAndRoles() {
        setUpTarget("a6");
        var unknown = kernel.send("POST", "/api/v1/operations/call", operator, "{\"connector_id\": \"disp\", "
                + "\"op_id\": \"disp.item0.list\", \"target\": \"a6\"}", Map.of());
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().path("error").asText()).isEqualTo("unknown_connector");
        var noTarget = kernel.send("POST", "/api/v1/operations/call", operator, "{\"connector_id\": \"disp-1.x\", "
                + "\"op_id\": \"disp.item0.list\", \"target\": \"nope\"}", Map.of());
        assertThat(noTarget.status()).isEqualTo(404);
        var reader = kernel.send("POST", "/api/v1/operations/call", issuer.token("r", tenant, "read_only"),
                "{\"connector_id\": \"disp-1.x\", \"op_id\": \"disp.item0.list\", \"target\": \"a6\"}", Map.of());
        assertThat(reader.status()).isEqualTo(403);

    }
}
