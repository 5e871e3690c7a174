package dev.backplane.kernel.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The states of an asynchronous run in one place: wire names (the table's check constraint), which are terminal,
 * the moves a call's outcome, run-cancel and the reaper make, and the envelope a cancelled run keeps.
 */
class RunStatusTest {

    @Test
    void wireNamesAreTheTablesCheckConstraint() {
        assertThat(Arrays.stream(RunStatus.values()).map(RunStatus::wireName)).containsExactly("pending", "running",
                "awaiting_approval", "succeeded", "failed", "cancelled");
        for (RunStatus s : RunStatus.values()) {
            assertThat(RunStatus.of(s.wireName())).isEqualTo(s);
        }
        assertThatThrownBy(() -> RunStatus.of("done")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCallsOutcomeFinishesARunningRun() {
        assertThat(RunStatus.finishedAs(ResultEnvelope.OK)).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(RunStatus.finishedAs(ResultEnvelope.AWAITING_APPROVAL)).isEqualTo(RunStatus.AWAITING_APPROVAL);
        assertThat(RunStatus.finishedAs(ResultEnvelope.ERROR)).isEqualTo(RunStatus.FAILED);
        assertThat(RunStatus.finishedAs(ResultEnvelope.DENIED)).isEqualTo(RunStatus.FAILED);
        assertThat(RunStatus.finishedAs(ResultEnvelope.UNAVAILABLE)).isEqualTo(RunStatus.FAILED);
        for (String outcome : new String[] {ResultEnvelope.OK, ResultEnvelope.AWAITING_APPROVAL, ResultEnvelope.ERROR}) {
            assertThat(RunStatus.RUNNING.canMoveTo(RunStatus.finishedAs(outcome))).isTrue();
        }
    }

    @Test
    void onlyAnUnfinishedRunCanBeCancelled() {
        assertThat(EnumSet.allOf(RunStatus.class).stream().filter(s -> s.canMoveTo(RunStatus.CANCELLED)))
                .containsExactlyInAnyOrder(RunStatus.PENDING, RunStatus.RUNNING, RunStatus.AWAITING_APPROVAL);
        assertThat(EnumSet.allOf(RunStatus.class).stream().filter(RunStatus::terminal))
                .containsExactlyInAnyOrder(RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.CANCELLED);
    }

    @Test
    void terminalStatesGoNowhereAndTheReaperFailsOnlyLeasedOnes() {
        for (RunStatus from : RunStatus.values()) {
            for (RunStatus to : RunStatus.values()) {
                if (from.terminal()) {
                    assertThat(from.canMoveTo(to)).as(from + " -> " + to).isFalse();
                }
            }
            assertThat(from.leased()).as(from + " leased").isEqualTo(from == RunStatus.PENDING || from == RunStatus.RUNNING);
            if (from.leased()) {
                assertThat(from.canMoveTo(RunStatus.FAILED)).as(from + " reaped").isTrue();
            }
        }
        assertThat(RunStatus.AWAITING_APPROVAL.canMoveTo(RunStatus.FAILED)).isFalse();
        assertThat(RunStatus.RUNNING.canMoveTo(RunStatus.PENDING)).isFalse();
    }

    @SuppressWarnings("unchecked")
    @Test
    void aCancelledRunKeepsWhoCancelledItAndTheApprovalStillOpen() {
        Map<String, Object> parked = AsyncRuns.cancelledEnvelope("alice", "vm.delete", "awaiting_approval", "ap-1");
        assertThat(parked).containsEntry("status", "error").containsEntry("op_id", "vm.delete")
                .containsEntry("result", null).containsEntry("duration_ms", 0)
                .containsEntry("error", "cancelled by run-cancel; approval request ap-1 is still open "
                        + "(svc approvals reject ap-1)");
        assertThat((Map<String, Object>) parked.get("extras")).containsExactly(Map.entry("error_code", "run_cancelled"),
                Map.entry("cancelled_by", "alice"), Map.entry("previous_status", "awaiting_approval"),
                Map.entry("approval_request_id", "ap-1"));

        Map<String, Object> running = AsyncRuns.cancelledEnvelope("bob", "vm.list", "running", null);
        assertThat(running).containsEntry("error", "cancelled by run-cancel");
        assertThat((Map<String, Object>) running.get("extras")).doesNotContainKey("approval_request_id");
    }
}
