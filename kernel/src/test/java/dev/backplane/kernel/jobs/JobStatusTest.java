package dev.backplane.kernel.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A background job's statuses: wire names, terminal ones, the moves allowed and the first status of a kind. */
class JobStatusTest {

    @Test
    void wireNamesAreWhatTheColumnHolds() {
        assertThat(Arrays.stream(JobStatus.values()).map(JobStatus::wire))
                .containsExactly("queued", "running", "succeeded", "failed");
        for (JobStatus s : JobStatus.values()) {
            assertThat(JobStatus.ofWire(s.wire())).isSameAs(s);
        }
        assertThatThrownBy(() -> JobStatus.ofWire("done")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aJobMovesForwardOnlyAndEndsTerminal() {
        assertThat(JobStatus.QUEUED.canMoveTo(JobStatus.RUNNING)).isTrue();
        assertThat(JobStatus.QUEUED.canMoveTo(JobStatus.FAILED)).as("reaped or failed before it ran").isTrue();
        assertThat(JobStatus.QUEUED.canMoveTo(JobStatus.SUCCEEDED)).as("a queued job runs before it succeeds")
                .isFalse();
        assertThat(JobStatus.RUNNING.canMoveTo(JobStatus.SUCCEEDED)).isTrue();
        assertThat(JobStatus.RUNNING.canMoveTo(JobStatus.FAILED)).isTrue();
        assertThat(JobStatus.RUNNING.canMoveTo(JobStatus.QUEUED)).isFalse();
        for (JobStatus end : new JobStatus[] {JobStatus.SUCCEEDED, JobStatus.FAILED}) {
            assertThat(end.terminal()).isTrue();
            for (JobStatus next : JobStatus.values()) {
                assertThat(end.canMoveTo(next)).as(end + " -> " + next).isFalse();
            }
        }
        assertThat(JobStatus.QUEUED.terminal()).isFalse();
        assertThat(JobStatus.RUNNING.terminal()).isFalse();
        for (JobStatus s : JobStatus.values()) {
            assertThat(s.canMoveTo(s)).as(s + " -> itself").isFalse();
        }
    }

    @Test
    void anIllegalMoveIsARunnersBug() {
        assertThat(JobStatus.QUEUED.moveTo(JobStatus.RUNNING)).isEqualTo(JobStatus.RUNNING);
        assertThatThrownBy(() -> JobStatus.SUCCEEDED.moveTo(JobStatus.FAILED))
                .isInstanceOf(IllegalStateException.class).hasMessage("a succeeded job cannot become failed");
    }

    @Test
    void aKindSaysWhetherANewJobIsQueuedOrRunning() {
        assertThat(JobStatus.initial(new JobKind("k", "k", "k", "/k", true, "gone"))).isEqualTo(JobStatus.QUEUED);
        assertThat(JobStatus.initial(new JobKind("k", "k", "k", "/k", false, "gone"))).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void aJobIsTerminalExactlyWhenItsStatusIs() {
        for (JobStatus s : JobStatus.values()) {
            BackgroundJob job = new BackgroundJob(null, new JobKind("k", "k", "k", "/k", true, "gone"), s, null, null,
                    null, null, null, null, Optional.empty());
            assertThat(job.terminal()).isEqualTo(s.terminal());
            assertThat(job.status()).isEqualTo(s.wire());
        }
    }
}
