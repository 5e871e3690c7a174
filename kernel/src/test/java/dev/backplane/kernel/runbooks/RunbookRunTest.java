package dev.backplane.kernel.runbooks;

import static dev.backplane.kernel.runbooks.RunbookRun.Phase.EXECUTED;
import static dev.backplane.kernel.runbooks.RunbookRun.Phase.EXECUTING;
import static dev.backplane.kernel.runbooks.RunbookRun.Phase.PENDING;
import static dev.backplane.kernel.runbooks.RunbookRun.Status.ABORTED;
import static dev.backplane.kernel.runbooks.RunbookRun.Status.AWAITING_APPROVAL;
import static dev.backplane.kernel.runbooks.RunbookRun.Status.COMPLETED;
import static dev.backplane.kernel.runbooks.RunbookRun.Status.ESCALATED;
import static dev.backplane.kernel.runbooks.RunbookRun.Status.IN_PROGRESS;
import static dev.backplane.kernel.runbooks.RunbookRun.Status.STOPPED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.runbooks.RunbookRun.Phase;
import dev.backplane.kernel.runbooks.RunbookRun.Status;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A run's status and its step's phase: every move the table allows, and that every other one is
 * refused — a finished run never moves again, a parked or escalated run never completes or escalates
 * without going through its resolution.
 */
class RunbookRunTest {

    private static final Map<Status, Set<Status>> ALLOWED = Map.of(
            IN_PROGRESS, EnumSet.allOf(Status.class),
            AWAITING_APPROVAL, EnumSet.of(IN_PROGRESS, STOPPED, ABORTED),
            ESCALATED, EnumSet.of(IN_PROGRESS, COMPLETED, STOPPED, ABORTED),
            COMPLETED, EnumSet.noneOf(Status.class),
            STOPPED, EnumSet.noneOf(Status.class),
            ABORTED, EnumSet.noneOf(Status.class));

    @Test
    void everyStatusMovesExactlyWhereTheTableSays() {
        for (Status from : Status.values()) {
            for (Status to : Status.values()) {
                assertThat(from.canMoveTo(to)).as(from + " -> " + to).isEqualTo(ALLOWED.get(from).contains(to));
            }
        }
    }

    @Test
    void aRunInProgressMayEndEveryWayOrStayInProgressOnItsNextStep() {
        assertThat(IN_PROGRESS.canMoveTo(IN_PROGRESS)).isTrue();
        assertThat(IN_PROGRESS.canMoveTo(AWAITING_APPROVAL)).isTrue();
        assertThat(IN_PROGRESS.canMoveTo(ESCALATED)).isTrue();
        assertThat(IN_PROGRESS.canMoveTo(COMPLETED)).isTrue();
        assertThat(IN_PROGRESS.canMoveTo(STOPPED)).isTrue();
        assertThat(IN_PROGRESS.canMoveTo(ABORTED)).isTrue();
    }

    @Test
    void aParkedRunNeitherCompletesNorEscalatesNorParksAgain() {
        assertThat(AWAITING_APPROVAL.canMoveTo(COMPLETED)).isFalse();
        assertThat(AWAITING_APPROVAL.canMoveTo(ESCALATED)).isFalse();
        assertThat(AWAITING_APPROVAL.canMoveTo(AWAITING_APPROVAL)).isFalse();
        assertThat(ESCALATED.canMoveTo(ESCALATED)).isFalse();
        assertThat(ESCALATED.canMoveTo(AWAITING_APPROVAL)).isFalse();
    }

    @Test
    void aFinishedRunNeverMovesAgain() {
        for (Status end : EnumSet.of(COMPLETED, STOPPED, ABORTED)) {
            assertThat(end.finished()).as(end.wire()).isTrue();
            for (Status to : Status.values()) {
                assertThat(end.canMoveTo(to)).as(end + " -> " + to).isFalse();
            }
        }
        assertThat(EnumSet.of(IN_PROGRESS, AWAITING_APPROVAL, ESCALATED)).allSatisfy(s ->
                assertThat(s.finished()).as(s.wire()).isFalse());
    }

    @Test
    void statusesKeepTheirWireNames() {
        assertThat(Status.wireNames()).containsExactly("aborted", "awaiting_approval", "completed", "escalated",
                "in_progress", "stopped");
        for (Status s : Status.values()) {
            assertThat(Status.parse(s.wire())).contains(s);
            assertThat(Status.of(s.wire())).isEqualTo(s);
        }
        assertThat(Status.parse("IN_PROGRESS")).isEmpty();
        assertThat(Status.parse("running")).isEmpty();
        assertThatThrownBy(() -> Status.of("running")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aStepRunsPendingExecutingExecutedAndParksBackToPending() {
        assertThat(PENDING.canMoveTo(EXECUTING)).as("claimed").isTrue();
        assertThat(EXECUTING.canMoveTo(EXECUTED)).as("answered, or outcome unknown").isTrue();
        assertThat(EXECUTING.canMoveTo(PENDING)).as("parked for approval").isTrue();
        assertThat(PENDING.canMoveTo(EXECUTED)).as("an approver's release ran it").isTrue();

        assertThat(PENDING.canMoveTo(PENDING)).isFalse();
        assertThat(EXECUTING.canMoveTo(EXECUTING)).as("claimed twice").isFalse();
        for (Phase to : Phase.values()) {
            assertThat(EXECUTED.canMoveTo(to)).as("an executed step is never run again: -> " + to).isFalse();
        }
        assertThat(Phase.of("executing")).isEqualTo(EXECUTING);
        assertThat(PENDING.wire()).isEqualTo("pending");
        assertThat(EXECUTED.wire()).isEqualTo("executed");
        assertThatThrownBy(() -> Phase.of("done")).isInstanceOf(IllegalArgumentException.class);
    }
}
