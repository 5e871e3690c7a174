package dev.backplane.kernel.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * run-status and run-cancel of asynchronous calls against a slow loopback target: a call really in flight
 * is cancelled (row, envelope, audit row), its thread interrupted, and its late outcome does not overwrite
 * the cancellation; a finished run answers 409 with its status; someone else's run is a missing one; the CLI
 * verbs end to end.
 */
class AsyncRunCancelIT extends PerTestTenant {

    /** Requests for this many items wait until the test releases them. */
    private static final int SLOW = 7;
    private static final List<String> HITS = new CopyOnWriteArrayList<>();
    private static final List<String> DONE = new CopyOnWriteArrayList<>();
    private static volatile CountDownLatch release = new CountDownLatch(1);
    private static LoopbackTarget target;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.start(setup, "svc", "pw-0123456789", x -> {
            String uri = x.getRequestURI().toString();
            HITS.add(uri);
            if (uri.contains("count=" + SLOW)) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            try {
                LoopbackHttp.itemsOr(x, "ok");
            } catch (java.io.IOException gone) {
                // the kernel hung up (cancelled call): nothing to answer
            }
            DONE.add(uri);
        });
        setup.plugin(TestPlugins.connector("slow", "1.x").product("slow").ranges("*").operations(2).httpProbe(false));
    }

    @AfterEach
    void releaseTarget() {
        release.countDown();
        release = new CountDownLatch(1);
    }

    private void setUpTarget(String name) {
        target.register(kernel, admin, name, "slow");
        kernel.enableConnector(admin, "slow-1.x");
    }

    private String startAsync(String token, String targetName, int count) {
        var r = kernel.send("POST", "/api/v1/operations/call", token, "{\"connector_id\": \"slow-1.x\", \"op_id\": "
                + "\"slow.item0.list\", \"target\": \"" + targetName + "\", \"params\": {\"count\": " + count + "}, "
                + "\"async\": true, \"work_ref\": \"CHG-CANCEL\"}", Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(202);
        return r.json().path("handle").asText();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as(what).isBefore(deadline);
            Thread.sleep(50);
        }
    }

    private JsonNode run(String token, String handle) {
        return kernel.get("/api/v1/operations/runs/" + handle, token).json();
    }

    private TestKernel.Response cancel(String token, String handle) {
        return kernel.post("/api/v1/operations/runs/" + handle + "/cancel", token, null);
    }

    private List<String> auditRows(String opId) {
        return kernel.jdbc().query("SELECT principal || ' ' || result_status || ' ' || coalesce(target, '-') || ' ' "
                + "|| coalesce(work_ref, '-') || ' ' || coalesce(extras->>'run_handle', '-') FROM audit_rows "
                + "WHERE tenant_id = ? AND op_id = ? ORDER BY occurred_at", rs -> rs.getString(1), tenant, opId);
    }

    @Test
    void aCallInFlightIsCancelledInterruptedAndNotOverwrittenByItsLateOutcome() throws Exception {
        setUpTarget("slow-1");
        String handle = startAsync(operator, "slow-1", SLOW);
        await("the call reached the target", () -> HITS.stream().anyMatch(h -> h.contains("count=" + SLOW)));
        assertThat(run(operator, handle).path("status").asText()).isEqualTo("running");

        // not the caller's run: a missing one, for another operator of the tenant and for another tenant
        var other = cancel(issuer.token("op2-" + tenant, tenant, "operator"), handle);
        assertThat(other.status()).as(other.body()).isEqualTo(404);
        assertThat(other.json().path("error").asText()).isEqualTo("run_not_found");
        assertThat(cancel(issuer.operator(UUID.randomUUID()), handle).status()).isEqualTo(404);
        assertThat(cancel(issuer.token("ro-" + tenant, tenant, "read_only"), handle).status()).isEqualTo(403);
        assertThat(cancel(operator, "not-a-handle").status()).isEqualTo(404);
        assertThat(cancel(operator, UUID.randomUUID().toString()).status()).isEqualTo(404);
        assertThat(run(operator, handle).path("status").asText()).isEqualTo("running");

        var cancelled = cancel(operator, handle);
        assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
        JsonNode c = cancelled.json();
        assertThat(c.path("status").asText()).isEqualTo("cancelled");
        assertThat(c.path("finished_at").isNull()).isFalse();
        assertThat(c.path("result").path("extras").path("error_code").asText()).isEqualTo("run_cancelled");
        assertThat(c.path("result").path("extras").path("previous_status").asText()).isEqualTo("running");
        assertThat(auditRows("svc.runs.cancelled")).containsExactly("op-" + tenant + " ok slow-1 CHG-CANCEL " + handle);

        // the run's thread was interrupted: the call ends (its audit row finished) while the target still holds it
        await("the interrupted call finished its audit row", () -> auditRows("slow.item0.list").stream()
                .anyMatch(r -> !r.contains(" started ")));
        assertThat(auditRows("slow.item0.list")).containsExactly("op-" + tenant + " error slow-1 CHG-CANCEL -");
        assertThat(kernel.jdbc().queryOne("SELECT error_code FROM audit_rows WHERE tenant_id = ? AND op_id = ?",
                rs -> rs.getString(1), tenant, "slow.item0.list").orElseThrow()).isEqualTo("connector_error");
        assertThat(DONE).noneMatch(h -> h.contains("count=" + SLOW));

        // a second cancel: 409 naming the state; the late outcome never overwrites the cancellation
        var again = cancel(operator, handle);
        assertThat(again.status()).as(again.body()).isEqualTo(409);
        assertThat(again.json().path("error").asText()).isEqualTo("run_finished");
        assertThat(again.json().path("extras").path("status").asText()).isEqualTo("cancelled");
        release.countDown();
        await("the target answered", () -> DONE.stream().anyMatch(h -> h.contains("count=" + SLOW)));
        Thread.sleep(500);
        JsonNode after = run(operator, handle);
        assertThat(after.path("status").asText()).isEqualTo("cancelled");
        assertThat(after.path("result")).isEqualTo(c.path("result"));
        assertThat(auditRows("svc.runs.cancelled")).hasSize(1);
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND op_id LIKE "
                + "'svc.governance.%cancel'", rs -> rs.getLong(1), tenant).orElseThrow())
                .as("the run's own audit row, not a second one on the governance trail").isZero();
    }

    @Test
    void aFinishedRunAnswers409WithItsStatus() throws Exception {
        setUpTarget("fast-1");
        String handle = startAsync(operator, "fast-1", 2);
        await("the run finished", () -> !run(operator, handle).path("status").asText().equals("running"));
        assertThat(run(operator, handle).path("status").asText()).isEqualTo("succeeded");
        var r = cancel(operator, handle);
        assertThat(r.status()).as(r.body()).isEqualTo(409);
        assertThat(r.json().path("error").asText()).isEqualTo("run_finished");
        assertThat(r.json().path("extras").path("status").asText()).isEqualTo("succeeded");
        assertThat(run(operator, handle).path("result").path("status").asText()).isEqualTo("ok");
        assertThat(auditRows("svc.runs.cancelled")).isEmpty();
    }

    @Test
    void theCliStartsShowsAndCancelsAnAsyncCall() throws Exception {
        setUpTarget("cli-1");
        CliRunner op = kernel.cli(operator);
        var started = op.run("operation", "call", "slow-1.x", "slow.item0.list", "--target", "cli-1", "--params",
                "{\"count\": " + SLOW + "}", "--async");
        assertThat(started.exitCode()).as(started.toString()).isZero();
        String handle = started.out().strip();
        assertThat(UUID.fromString(handle)).isNotNull();
        assertThat(started.err()).contains("svc operation run-status " + handle);
        await("the call reached the target", () -> HITS.stream().filter(h -> h.contains("count=" + SLOW)).count() >= 1
                && run(operator, handle).path("status").asText().equals("running"));

        var status = op.run("operation", "run-status", handle);
        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.out()).contains(handle).contains("slow.item0.list").contains("running");
        var cancelled = op.run("operation", "run-cancel", handle);
        assertThat(cancelled.exitCode()).as(cancelled.toString()).isZero();
        assertThat(cancelled.out()).contains("cancelled").contains("run_cancelled");
        var again = op.run("operation", "run-cancel", handle);
        assertThat(again.exitCode()).as(again.toString()).isEqualTo(1);
        assertThat(again.err()).contains("run_finished").contains("already cancelled");
        assertThat(op.run("operation", "run-status", handle, "--json").out()).contains("\"status\" : \"cancelled\"");
        assertThat(op.run("operation", "run-status", UUID.randomUUID().toString()).exitCode()).isEqualTo(1);

        release.countDown(); // the loopback target answers one request at a time
        var sync = op.run("operation", "call", "slow-1.x", "slow.item0.list", "--target", "cli-1", "--params",
                "{\"count\": 2}");
        assertThat(sync.exitCode()).as(sync.toString()).isZero();
        assertThat(sync.out()).contains("item-1");
    }
}
