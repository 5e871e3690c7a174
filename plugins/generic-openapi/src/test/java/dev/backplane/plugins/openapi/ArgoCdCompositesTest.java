package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The composites' own rules (which connectors get them, what is refused before anything is sent). */
class ArgoCdCompositesTest {

    private final TestContext ctx = new TestContext(Duration.ofSeconds(1800));
    private final List<String> sent = new ArrayList<>();
    private final List<java.time.Instant> deadlines = new ArrayList<>();

    private static IngestedConnector connector(String impl, String... opIds) {
        List<OperationDescriptor> ops = new ArrayList<>();
        for (String id : opIds) {
            ops.add(new OperationDescriptor(id, ArgoCdComposites.GROUP, id, SafetyLevel.SAFE, false, OpClass.READ,
                    Specs.NO_PARAMS, new OperationShape.Http("GET", "/x"), ResultKind.OBJECT));
        }
        return new IngestedConnector(new ConnectorDescriptor(impl, "3.x", List.of(new ConnectorDescriptor.Product(impl,
                443)), List.of("*"), List.of("username", "password")), new Catalog(List.of(new OperationGroup(
                ArgoCdComposites.GROUP, "Applications", "")), ops), "", new AuthScheme("none", List.of(), Map.of()));
    }

    private OperationResult run(String opId, Map<String, Object> params, Object application) {
        AppWatch watch = new AppWatch(ctx.clock(), ctx::advance, () -> false);
        return ArgoCdComposites.run(Specs.call(opId, params), (child, p, deadline) -> {
            sent.add(child + " " + p);
            deadlines.add(deadline);
            return application;
        }, ctx, watch);
    }

    @Test
    void onlyArgoCdWithTheOperationsTheyAreBuiltFromGetsTheCompositesAsApprovalGatedWrites() {
        List<OperationDescriptor> ops = ArgoCdComposites.operations(connector("argocd", ArgoCdComposites.GET,
                ArgoCdComposites.SYNC, ArgoCdComposites.ROLLBACK));
        assertThat(ops).extracting(OperationDescriptor::opId).containsExactly(ArgoCdComposites.SYNC_AND_WAIT,
                ArgoCdComposites.ROLLBACK_AND_WAIT);
        assertThat(ops).allSatisfy(op -> {
            assertThat(op.shape()).isInstanceOf(OperationShape.Composite.class);
            assertThat(op.opClass()).isEqualTo(OpClass.WRITE);
            assertThat(op.requiresApproval()).isTrue();
            assertThat(op.safetyLevel()).isEqualTo(SafetyLevel.CAUTION);
        });
        assertThat(ArgoCdComposites.operations(connector("acme", ArgoCdComposites.GET, ArgoCdComposites.SYNC,
                ArgoCdComposites.ROLLBACK))).isEmpty();
        assertThat(ArgoCdComposites.operations(connector("argocd", ArgoCdComposites.GET, ArgoCdComposites.SYNC)))
                .as("a spec without rollback").isEmpty();
    }

    @Test
    void aRollbackToAnIdNotInTheHistoryIsRefusedNamingTheKnownIdsAfterOnlyReadingTheApplication() {
        Map<String, Object> app = Map.of("status", Map.of("history", List.of(Map.of("id", 1), Map.of("id", 2))));
        OperationResult r = run(ArgoCdComposites.ROLLBACK_AND_WAIT, Map.of("name", "guestbook", "id", 7), app);
        assertThat(r).isInstanceOfSatisfying(OperationResult.Failure.class, f -> {
            assertThat(f.code()).isEqualTo(ErrorCode.INVALID_PARAMS);
            assertThat(f.message()).contains("[1, 2]");
            assertThat(f.extras()).containsEntry("known_history_ids", List.of(1L, 2L));
        });
        assertThat(sent).hasSize(1).allMatch(s -> s.startsWith(ArgoCdComposites.GET + " "));
    }

    @Test
    void aTimeoutOutsideItsRangeOrAMissingNameIsRefusedBeforeAnythingIsSent() {
        for (Map<String, Object> p : List.<Map<String, Object>>of(Map.of("name", "guestbook", "timeout_seconds", 9),
                Map.of("name", "guestbook", "timeout_seconds", 1801), Map.of("timeout_seconds", 60))) {
            OperationResult r = run(ArgoCdComposites.SYNC_AND_WAIT, p, Map.of());
            assertThat(r).as(p.toString()).isInstanceOfSatisfying(OperationResult.Failure.class,
                    f -> assertThat(f.code()).isEqualTo(ErrorCode.INVALID_PARAMS));
        }
        assertThat(sent).isEmpty();
    }

    @Test
    void syncSendsTheRequestThenPollsAndAnswersTheSettledState() {
        Map<String, Object> healthy = Map.of("status", Map.of("operationState", Map.of("phase", "Succeeded"),
                "sync", Map.of("status", "Synced", "revision", "abc"), "health", Map.of("status", "Healthy")));
        OperationResult r = run(ArgoCdComposites.SYNC_AND_WAIT, Map.of("name", "guestbook", "revision", "HEAD",
                "prune", true, "project", "default"), healthy);
        assertThat(r).isInstanceOfSatisfying(OperationResult.Document.class, d -> assertThat(d.value().toString())
                .contains("polls=1").contains("revision=abc"));
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0)).startsWith(ArgoCdComposites.SYNC).contains("revision=HEAD").contains("prune=true")
                .contains("dryRun=false").contains("project=default");
        assertThat(sent.get(1)).startsWith(ArgoCdComposites.GET).contains("project=[default]");
        assertThat(deadlines).as("every child request is bounded by the default 300 s").containsOnly(
                java.time.Instant.parse("2026-01-01T00:05:00Z"));
    }
}
