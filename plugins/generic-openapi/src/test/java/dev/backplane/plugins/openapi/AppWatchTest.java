package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The backoff and termination of the Argo CD wait, on a clock the sleeper moves (no real sleeping). */
class AppWatchTest {

    private static final ArgoAppState.Until SYNCED = ArgoAppState.Until.SYNCED_AND_HEALTHY;
    private final TestContext ctx = new TestContext();
    private final List<Duration> sleeps = new ArrayList<>();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AppWatch watch = new AppWatch(ctx.clock(), d -> {
        sleeps.add(d);
        ctx.advance(d);
    }, cancelled::get);

    static ArgoAppState app(boolean pending, String phase, String sync, String health, String message) {
        Map<String, Object> status = Map.of("operationState", Map.of("phase", phase, "message", message),
                "sync", Map.of("status", sync, "revision", "4f7a2c1"), "health", Map.of("status", health));
        return ArgoAppState.of(pending ? Map.of("operation", Map.of("sync", Map.of()), "status", status)
                : Map.of("status", status));
    }

    private static java.util.function.Supplier<ArgoAppState> replay(ArgoAppState... states) {
        Iterator<ArgoAppState> it = List.of(states).iterator();
        ArgoAppState[] last = {states[0]};
        return () -> last[0] = it.hasNext() ? it.next() : last[0];
    }

    private Instant in(int seconds) {
        return ctx.clock().instant().plusSeconds(seconds);
    }

    @Test
    void theDelayStartsAtOneSecondDoublesAndIsCappedAtTen() {
        assertThat(List.of(0, 1, 2, 3, 4, 5, 30).stream().map(AppWatch::delay).map(Duration::toSeconds).toList())
                .containsExactly(1L, 2L, 4L, 8L, 10L, 10L, 10L);
    }

    @Test
    void waitsThroughProgressingUntilTheOperationSucceededSyncedAndHealthy() {
        AppWatch.Outcome o = watch.watch(replay(app(true, "Running", "OutOfSync", "Healthy", ""),
                app(false, "Succeeded", "Synced", "Progressing", ""), app(false, "Succeeded", "Synced", "Healthy",
                        "successfully synced")), in(300), SYNCED);
        assertThat(o).isInstanceOf(AppWatch.Outcome.Settled.class);
        assertThat(o.polls()).isEqualTo(3);
        assertThat(sleeps).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
        assertThat(o.last().document("guestbook", o.polls())).containsEntry("health_status", "Healthy")
                .containsEntry("sync_status", "Synced").containsEntry("revision", "4f7a2c1").containsEntry("polls", 3);
    }

    @Test
    void aFinishedLookingStateDoesNotCountWhileTheRequestedOperationIsStillPending() {
        AppWatch.Outcome o = watch.watch(replay(app(true, "Succeeded", "Synced", "Healthy", "the previous sync"),
                app(false, "Succeeded", "Synced", "Healthy", "")), in(300), SYNCED);
        assertThat(o).isInstanceOf(AppWatch.Outcome.Settled.class);
        assertThat(o.polls()).isEqualTo(2);
    }

    @Test
    void aDegradedApplicationOrAFailedOperationEndsTheWaitWithTheApplicationsMessage() {
        AppWatch.Outcome degraded = watch.watch(replay(app(false, "Succeeded", "Synced", "Degraded",
                "Deployment guestbook exceeded its progress deadline")), in(300), SYNCED);
        assertThat(degraded).isInstanceOf(AppWatch.Outcome.Failed.class);
        assertThat(degraded.last().message()).contains("progress deadline");
        AppWatch.Outcome failed = watch.watch(replay(app(false, "Failed", "OutOfSync", "Healthy",
                "one or more objects failed to apply")), in(300), SYNCED);
        assertThat(failed).isInstanceOf(AppWatch.Outcome.Failed.class);
        assertThat(failed.last().describe()).isEqualTo("operation Failed, sync OutOfSync, health Healthy");
    }

    @Test
    void aDegradedApplicationIsNotAFailureWhileTheOperationThatShouldHealItRuns() {
        AppWatch.Outcome o = watch.watch(replay(app(true, "Running", "OutOfSync", "Degraded", ""),
                app(false, "Succeeded", "OutOfSync", "Healthy", "rolled back")), in(300), ArgoAppState.Until.HEALTHY);
        assertThat(o).as("a rollback leaves the application OutOfSync").isInstanceOf(AppWatch.Outcome.Settled.class);
    }

    @Test
    void aDryRunEndsWhenItsOperationSucceededWhateverTheApplicationsHealth() {
        AppWatch.Outcome o = watch.watch(replay(app(true, "Running", "OutOfSync", "Degraded", ""),
                app(false, "Succeeded", "OutOfSync", "Degraded", "dry run")), in(300),
                ArgoAppState.Until.OPERATION_SUCCEEDED);
        assertThat(o).isInstanceOf(AppWatch.Outcome.Settled.class);
        assertThat(o.polls()).isEqualTo(2);
    }

    @Test
    void aNeverHealthyApplicationTimesOutAtTheDeadlineNamingTheLastStateWithoutSleepingPastIt() {
        AppWatch.Outcome o = watch.watch(replay(app(false, "Succeeded", "Synced", "Progressing", "")), in(10), SYNCED);
        assertThat(o).isInstanceOf(AppWatch.Outcome.TimedOut.class);
        assertThat(sleeps).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
                Duration.ofSeconds(3));
        assertThat(o.polls()).as("one poll after each pause, the last at the deadline").isEqualTo(4);
        assertThat(o.last().describe()).isEqualTo("operation Succeeded, sync Synced, health Progressing");
    }

    @Test
    void cancellationStopsTheWaitBeforeTheNextPoll() {
        int[] polls = {0};
        AppWatch.Outcome o = watch.watch(() -> {
            if (++polls[0] == 2) {
                cancelled.set(true);
            }
            return app(true, "Running", "OutOfSync", "Progressing", "");
        }, in(300), SYNCED);
        assertThat(o).isInstanceOf(AppWatch.Outcome.Cancelled.class);
        assertThat(polls[0]).isEqualTo(2);
    }

    @Test
    void anInterruptedSleepIsACancellation() {
        AppWatch interrupted = new AppWatch(ctx.clock(), d -> {
            throw new InterruptedException();
        }, () -> false);
        try {
            assertThat(interrupted.watch(() -> {
                throw new AssertionError("no poll after an interrupt");
            }, in(300), SYNCED)).isInstanceOf(AppWatch.Outcome.Cancelled.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
