package dev.backplane.kernel.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.client.ApiClient;
import dev.backplane.client.ApiException;
import dev.backplane.client.api.ApprovalsApi;
import dev.backplane.client.api.AuditApi;
import dev.backplane.client.api.ConnectorsApi;
import dev.backplane.client.api.OperationsApi;
import dev.backplane.client.api.TargetsApi;
import dev.backplane.client.model.Approval;
import dev.backplane.client.model.AuditRow;
import dev.backplane.client.model.CallRequest;
import dev.backplane.client.model.OperationEdit;
import dev.backplane.client.model.PostApprovalsByIdApprove200Response;
import dev.backplane.client.model.PostApprovalsByIdApproveRequest;
import dev.backplane.client.model.PutTargetsByNameSecretRequest;
import dev.backplane.client.model.ResultEnvelope;
import dev.backplane.client.model.Target;
import dev.backplane.client.model.TargetFields;
import dev.backplane.client.support.SvcClients;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.GeneratedClient;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestPlugins;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The generated client ({@code svc-client}) against a real kernel, across tags: a target registered and listed,
 * an operation called, a call parked for approval and approved by a second person, the audit read back, and
 * errors as SPEC's codes. The client is strict here ({@link GeneratedClient}): an answer the OpenAPI document does
 * not describe — an unknown property, a missing required one, an enum value it does not list — fails to
 * deserialize, so the document, the client and the kernel cannot drift apart unnoticed.
 */
class GeneratedClientIT extends PerTestTenant {

    private static final String PASSWORD = "gen-pw-" + UUID.randomUUID();
    private static final List<String> HITS = new CopyOnWriteArrayList<>();
    private static LoopbackTarget loopback;

    @BeforeKernel
    static void start(KernelSetup setup) {
        loopback = LoopbackTarget.basicAuthItems(setup, "svc", PASSWORD, LoopbackTarget.recordInto(HITS));
        setup.plugin(TestPlugins.connector("gen", "1.x").product("gen").ranges("*").operations(6).httpProbe(false)
                .typedAndComposite());
    }

    private final ApiClient asAdmin = GeneratedClient.of(kernel, admin);
    private final ApiClient asSecondAdmin = GeneratedClient.of(kernel, admin2);
    private final ApiClient asOperator = GeneratedClient.of(kernel, operator);

    private Target register(String name) throws ApiException {
        Target created = new TargetsApi(asAdmin).postTargets(new TargetFields().name(name).product("gen")
                .host("127.0.0.1").port(loopback.port()).extras(Map.of("scheme", "http")), null);
        new TargetsApi(asAdmin).putTargetsByNameSecret(name, new PutTargetsByNameSecretRequest()
                .fields(Map.of("username", loopback.user(), "password", loopback.password())), null);
        return created;
    }

    private static CallRequest call(String op, String target, Map<String, Object> params) {
        return new CallRequest().connectorId("gen-1.x").opId(op).target(target).params(params).workRef("CHG-GEN");
    }

    @Test
    void registerListCallParkApproveAndReadTheAuditThroughTheClient() throws Exception {
        Target created = register("gc-1");
        assertThat(created.getSecretRef()).isEqualTo("tenants/" + tenant + "/gc-1");
        assertThat(created.getPort()).isEqualTo(loopback.port());
        assertThat(new TargetsApi(asOperator).getTargets(TargetsApi.APIGetTargetsRequest.newBuilder().product("gen")
                .build()).getTargets()).extracting(Target::getName).containsExactly("gc-1");

        ConnectorsApi connectors = new ConnectorsApi(asAdmin);
        connectors.postConnectorsByConnectorIdEnableReads("gen-1.x", null, null);
        connectors.postConnectorsByConnectorIdEnable("gen-1.x", null);
        connectors.patchConnectorsByConnectorIdOperationsByOpId("gen-1.x", "gen.item5.delete",
                new OperationEdit().isEnabled(true).safetyLevel(OperationEdit.SafetyLevelEnum.CAUTION), null);

        OperationsApi operations = new OperationsApi(asAdmin);
        ResultEnvelope listed = operations.postOperationsCall(call("gen.item0.list", "gc-1", Map.of("count", 2)), null);
        assertThat(listed.getStatus()).as(listed.toString()).isEqualTo(ResultEnvelope.StatusEnum.OK);
        assertThat((List<?>) listed.getResult()).hasSize(2);

        ResultEnvelope parked = operations.postOperationsCall(call("gen.item5.delete", "gc-1", Map.of("name", "gone")),
                null);
        assertThat(parked.getStatus()).as(parked.toString()).isEqualTo(ResultEnvelope.StatusEnum.AWAITING_APPROVAL);
        UUID id = UUID.fromString((String) parked.getExtras().get("approval_request_id"));
        int before = HITS.size();

        ApprovalsApi approvals = new ApprovalsApi(asOperator);
        assertThat(approvals.getApprovals(ApprovalsApi.APIGetApprovalsRequest.newBuilder().status("pending").build()))
                .extracting(Approval::getId).containsExactly(id);
        Approval shown = approvals.getApprovalsById(id, null);
        assertThat(shown.getResolved()).extractingByKey("params").isEqualTo(Map.of("name", "gone"));
        assertThat(shown.getWorkRef()).isEqualTo("CHG-GEN");

        assertThatThrownBy(() -> new ApprovalsApi(asAdmin).postApprovalsByIdApprove(id, null,
                new PostApprovalsByIdApproveRequest()))
                .satisfies(e -> assertThat(GeneratedClient.errorCode(e, 403)).isEqualTo("four_eyes"));
        assertThat(HITS).as("refused approval ran nothing").hasSize(before);

        PostApprovalsByIdApprove200Response approved = new ApprovalsApi(asSecondAdmin).postApprovalsByIdApprove(id, null,
                new PostApprovalsByIdApproveRequest().reason("ticket checked"));
        assertThat(approved.getApproval().getStatus()).isEqualTo(Approval.StatusEnum.APPROVED);
        assertThat(approved.getApproval().getDecidedBy()).isEqualTo("admin2-" + tenant);
        assertThat(approved.getResult().getStatus()).isEqualTo(ResultEnvelope.StatusEnum.OK);
        assertThat(HITS.subList(before, HITS.size())).containsExactly("DELETE /items/gone");

        AuditApi audit = new AuditApi(asOperator);
        List<AuditRow> rows = audit.getAudit(AuditApi.APIGetAuditRequest.newBuilder().target("gc-1").build()).getRows();
        assertThat(rows).extracting(r -> r.getOpId() + ":" + r.getResultStatus().getValue()).as("newest first")
                .containsExactly("gen.item5.delete:ok", "svc.approval.approve:ok", "gen.item5.delete:awaiting_approval",
                        "gen.item0.list:ok");
        assertThat(rows).allSatisfy(r -> assertThat(r.getWorkRef()).isEqualTo("CHG-GEN"));
        AuditRow execution = audit.getAuditByAuditId(approvals.getApprovalsById(id, null).getExecutionAuditId(), null);
        assertThat(execution.getPrincipal()).as("the execution is the requester's call").isEqualTo("admin-" + tenant);
        assertThat(rows.toString() + approved + listed).doesNotContain(PASSWORD);
    }

    @Test
    void errorAnswersAreApiExceptionsCarryingSpecCodes() throws Exception {
        TargetsApi targets = new TargetsApi(asAdmin);
        assertThatThrownBy(() -> targets.getTargetsByName("nope", null))
                .satisfies(e -> assertThat(GeneratedClient.errorCode(e, 404)).isEqualTo("target_not_found"));
        assertThatThrownBy(() -> targets.postTargets(new TargetFields().name("k").product("kubernetes").host("127.0.0.1"),
                null)).satisfies(e -> {
                    assertThat(GeneratedClient.errorCode(e, 422)).isEqualTo("unknown_product");
                    assertThat(SvcClients.error((ApiException) e).orElseThrow().getExtras()
                            .getAdditionalProperty("valid_products")).isEqualTo(List.of("gen"));
                });
        assertThatThrownBy(() -> new TargetsApi(asOperator).postTargets(new TargetFields().name("x").product("gen")
                .host("127.0.0.1"), null))
                .satisfies(e -> assertThat(GeneratedClient.errorCode(e, 403)).isEqualTo("insufficient_role"));
        assertThatThrownBy(() -> targets.getTargets(TargetsApi.APIGetTargetsRequest.newBuilder().limit(0).build()))
                .satisfies(e -> assertThat(GeneratedClient.errorCode(e, 422)).isEqualTo("invalid_limit"));
        assertThatThrownBy(() -> new ApprovalsApi(asOperator).getApprovalsById(UUID.randomUUID(), null))
                .satisfies(e -> assertThat(GeneratedClient.errorCode(e, 404)).isNotBlank());
    }

    @Test
    void anAnswerTheDocumentDoesNotDescribeFailsToDeserialize() throws Exception {
        register("gc-2");
        String body = kernel.post("/api/v1/operations/call", operator, Map.of("connector_id", "gen-1.x",
                "op_id", "gen.item0.list", "target", "gc-2", "params", Map.of())).body();
        ObjectMapper strict = asOperator.getObjectMapper();
        assertThat(strict.readValue(body, ResultEnvelope.class).getStatus()).as(body)
                .isEqualTo(ResultEnvelope.StatusEnum.DENIED);

        ObjectNode undocumented = (ObjectNode) strict.readTree(body);
        undocumented.put("undocumented", true);
        assertThatThrownBy(() -> strict.readValue(undocumented.toString(), ResultEnvelope.class))
                .isInstanceOf(UnrecognizedPropertyException.class).hasMessageContaining("undocumented");

        ObjectNode incomplete = (ObjectNode) strict.readTree(body);
        incomplete.remove("op_id");
        assertThatThrownBy(() -> strict.readValue(incomplete.toString(), ResultEnvelope.class))
                .isInstanceOf(MismatchedInputException.class).hasMessageContaining("'op_id'");

        ObjectNode unlisted = (ObjectNode) strict.readTree(body);
        unlisted.put("status", "postponed");
        assertThatThrownBy(() -> strict.readValue(unlisted.toString(), ResultEnvelope.class))
                .hasMessageContaining("postponed");
    }
}
