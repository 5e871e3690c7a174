package dev.backplane.kernel.runbooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.runbooks.RunbookInputs.Answer;
import dev.backplane.kernel.runbooks.RunbookNext.Request;
import dev.backplane.kernel.runbooks.RunbookRun.Phase;
import dev.backplane.kernel.runbooks.RunbookRun.Status;
import dev.backplane.kernel.runbooks.RunbookRunStore.Row;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A {@code next}'s checks: the request (answer, reason, step), the run as read (not finished, at the step the
 * author saw), and the locked row still being where it was read.
 */
class RunbookNextTest {

    private static final UUID RUN = UUID.randomUUID();

    private static Row row(Status status, int step, Phase phase) {
        Instant t = Instant.parse("2026-03-02T12:00:00Z");
        return new Row(RUN, UUID.randomUUID(), "restart", 1, Optional.empty(), Map.of(), Optional.empty(), status, step,
                phase, Optional.empty(), NullNode.getInstance(), "alice", Optional.empty(), Optional.empty(), t, t,
                Optional.empty());
    }

    private static void refused(Runnable r, String code, String extra, Object value) {
        assertThatThrownBy(r::run).isInstanceOf(DomainException.class).satisfies(e -> {
            assertThat(((DomainException) e).code()).isEqualTo(code);
            assertThat(((DomainException) e).extras().get(extra)).isEqualTo(value);
        });
    }

    @Test
    void aRequestIsItsAnswerItsNonBlankReasonAndTheStepItsAuthorSaw() {
        assertThat(Request.of(null)).isEqualTo(new Request(Optional.empty(), Optional.empty(), Optional.empty()));
        assertThat(Request.of(new RunbookRuns.Next("no", "disk still full", 2)))
                .isEqualTo(new Request(Optional.of(Answer.NO), Optional.of("disk still full"), Optional.of(2)));
        assertThat(Request.of(new RunbookRuns.Next(" ", "  ", null)).reason()).isEmpty();
        refused(() -> Request.of(new RunbookRuns.Next("maybe", null, null)), "invalid_run", "field", "verify_response");
        refused(() -> Request.of(new RunbookRuns.Next("yes", null, 0)), "invalid_run", "field", "step");
        refused(() -> Request.of(new RunbookRuns.Next("no", "x".repeat(1001), null)), "invalid_run", "field", "reason");
    }

    @Test
    void aRequestLandsOnlyOnAnUnfinishedRunAtTheStepItsAuthorSaw() {
        Request atStep2 = new Request(Optional.of(Answer.YES), Optional.empty(), Optional.of(2));
        atStep2.checkAgainst(row(Status.IN_PROGRESS, 1, Phase.EXECUTED)); // step index 1 is step 2
        refused(() -> atStep2.checkAgainst(row(Status.IN_PROGRESS, 2, Phase.PENDING)), "step_changed", "step", 3);
        for (Status done : new Status[] {Status.COMPLETED, Status.STOPPED, Status.ABORTED}) {
            refused(() -> atStep2.checkAgainst(row(done, 1, Phase.EXECUTED)), "run_finished", "status", done.wire());
        }
        // without a step, any unfinished position is taken
        new Request(Optional.empty(), Optional.empty(), Optional.empty()).checkAgainst(row(Status.ESCALATED, 4,
                Phase.EXECUTED));
    }

    @Test
    void theLockedRowMustStillBeWhereItWasRead() {
        Row peek = row(Status.IN_PROGRESS, 1, Phase.PENDING);
        RunbookNext.checkUnchanged(peek, row(Status.IN_PROGRESS, 1, Phase.PENDING));
        refused(() -> RunbookNext.checkUnchanged(peek, row(Status.IN_PROGRESS, 2, Phase.PENDING)), "step_changed",
                "step", 3);
        refused(() -> RunbookNext.checkUnchanged(peek, row(Status.AWAITING_APPROVAL, 1, Phase.PENDING)),
                "step_changed", "step", 2);
        refused(() -> RunbookNext.checkUnchanged(peek, row(Status.IN_PROGRESS, 1, Phase.EXECUTING)), "step_changed",
                "step", 2);
    }
}
