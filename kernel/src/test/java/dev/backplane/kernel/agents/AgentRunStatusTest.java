package dev.backplane.kernel.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.agents.AgentRun.Status;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** A run's status machine: a finished run never moves again, and the store's SQL guards follow the enum. */
class AgentRunStatusTest {

    @Test
    void finishedRunsNeverMoveAgain() {
        for (Status done : EnumSet.of(Status.SUCCEEDED, Status.FAILED, Status.CANCELLED)) {
            assertThat(done.finished()).as(done.wire()).isTrue();
            for (Status next : Status.values()) {
                assertThat(done.canMoveTo(next)).as(done.wire() + " -> " + next.wire()).isFalse();
            }
        }
    }

    @Test
    void unfinishedRunsRunParkHandOffAndFinish() {
        assertThat(Status.PENDING.canMoveTo(Status.RUNNING)).isTrue();
        assertThat(Status.PENDING.canMoveTo(Status.CANCELLED)).as("cancelled before it started").isTrue();
        assertThat(Status.PENDING.canMoveTo(Status.FAILED)).as("refused at launch, or orphaned").isTrue();
        assertThat(Status.RUNNING.canMoveTo(Status.AWAITING_APPROVAL)).isTrue();
        assertThat(Status.RUNNING.canMoveTo(Status.PENDING)).as("handed off").isTrue();
        assertThat(Status.AWAITING_APPROVAL.canMoveTo(Status.RUNNING)).as("approval decided").isTrue();
        assertThat(Status.AWAITING_APPROVAL.canMoveTo(Status.PENDING)).as("handed off while parked").isTrue();
        for (Status live : EnumSet.of(Status.PENDING, Status.RUNNING, Status.AWAITING_APPROVAL)) {
            assertThat(live.finished()).isFalse();
            assertThat(live.canMoveTo(Status.SUCCEEDED)).isTrue();
            assertThat(live.canMoveTo(Status.FAILED)).isTrue();
            assertThat(live.canMoveTo(Status.CANCELLED)).isTrue();
            assertThat(live.canMoveTo(null)).isFalse();
        }
    }

    @Test
    void theStoreGuardsEveryMoveWithTheMovableStatuses() {
        assertThat(Status.movable()).containsExactly(Status.PENDING, Status.RUNNING, Status.AWAITING_APPROVAL);
        assertThat(AgentRunStore.MOVABLE).isEqualTo("('pending', 'running', 'awaiting_approval')");
    }

    @Test
    void wireNamesParseBackAndNothingElseDoes() {
        for (Status s : Status.values()) {
            assertThat(Status.parse(s.wire())).contains(s);
        }
        assertThat(Status.AWAITING_APPROVAL.wire()).isEqualTo("awaiting_approval");
        assertThat(Status.parse("RUNNING")).isEmpty();
        assertThat(Status.parse("done")).isEmpty();
        assertThat(Status.parse("")).isEmpty();
    }

    @Test
    void theAuditOutcomeOfAnEnd() {
        assertThat(Status.SUCCEEDED.auditOutcome()).isEqualTo("ok");
        assertThat(Status.CANCELLED.auditOutcome()).isEqualTo("denied");
        assertThat(Status.FAILED.auditOutcome()).isEqualTo("error");
    }
}
