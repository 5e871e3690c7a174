package dev.backplane.kernel.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The run rules that need no database: the prompt check, who is accountable for a run, how a run that threw
 * ends, and the hand-off gate of a graceful shutdown.
 */
class AgentRunRulesTest {

    private static final UUID RUN = UUID.fromString("00000000-0000-0000-0000-000000000042");

    @Test
    void aPromptIsRequiredAndBounded() {
        assertThatThrownBy(() -> AgentRuns.checkInput(null)).isInstanceOf(DomainException.class)
                .hasMessageContaining("input is required");
        assertThatThrownBy(() -> AgentRuns.checkInput("  \n")).hasMessageContaining("input is required");
        AgentRuns.checkInput("x".repeat(AgentRuns.MAX_INPUT_CHARS));
        assertThatThrownBy(() -> AgentRuns.checkInput("x".repeat(AgentRuns.MAX_INPUT_CHARS + 1)))
                .isInstanceOf(DomainException.class).hasMessageContaining("longer than 65536");
    }

    @Test
    void accountableAreThePersonWhoStartedItAndTheAuthorsEachOnce() {
        Map<String, String> parties = AgentRuns.accountable(RUN, List.of(
                new AgentRunStore.Parties("alice", null, null, "bob", "triage")));
        assertThat(parties).containsExactly(Map.entry("alice", "who started agent run " + RUN),
                Map.entry("bob", "the author of agent definition 'triage'"));

        Map<String, String> self = AgentRuns.accountable(RUN, List.of(
                new AgentRunStore.Parties("alice", null, null, "alice", "triage")));
        assertThat(self).as("the first reason wins").containsExactly(Map.entry("alice", "who started agent run " + RUN));
    }

    @Test
    void aServiceThatStartedARunIsNotAccountableButItsAuthorIs() {
        Map<String, String> parties = AgentRuns.accountable(RUN, List.of(
                new AgentRunStore.Parties("svc-trigger:7", "carol", null, "bob", "triage"),
                new AgentRunStore.Parties("svc-dashboard:9", null, "dave", null, "triage")));
        assertThat(parties).containsExactly(
                Map.entry("carol", "the author of the trigger that started agent run " + RUN),
                Map.entry("bob", "the author of agent definition 'triage'"),
                Map.entry("dave", "the author of the dashboard that started agent run " + RUN));
        assertThat(AgentRuns.accountable(RUN, List.of())).as("not an agent run").isEmpty();
    }

    @Test
    void aRunInterruptedByItsCancelIsCancelledAnythingElseFails() {
        RuntimeException boom = new IllegalStateException("db call interrupted");
        RunLoop.Outcome cancelled = RunExecution.afterThrow(true, () -> true, boom);
        assertThat(cancelled.status()).isEqualTo(AgentRun.Status.CANCELLED);
        assertThat(cancelled.errorCode()).contains("cancelled");

        RunLoop.Outcome notAsked = RunExecution.afterThrow(true, () -> false, boom);
        assertThat(notAsked.status()).isEqualTo(AgentRun.Status.FAILED);
        assertThat(notAsked.errorCode()).contains("internal_error");
        assertThat(notAsked.error()).contains("the run failed: IllegalStateException");

        AtomicBoolean asked = new AtomicBoolean();
        RunLoop.Outcome plain = RunExecution.afterThrow(false, () -> asked.getAndSet(true), boom);
        assertThat(plain.status()).isEqualTo(AgentRun.Status.FAILED);
        assertThat(asked).as("no interrupt: the cancel flag is not even read").isFalse();
    }

    @Test
    void aHandOffRefusesNewModelCalls() throws Exception {
        LocalRuns local = new LocalRuns();
        assertThat(local.duringModelCall(RUN, () -> "answer")).isEqualTo("answer");
        local.handOff();
        assertThat(local.handingOff()).isTrue();
        assertThatThrownBy(() -> local.duringModelCall(RUN, () -> "answer")).isInstanceOf(InterruptedException.class);
    }

    @Test
    void aHandOffCutsOffAModelCallInFlightAndTheRunEnds() throws Exception {
        LocalRuns local = new LocalRuns();
        CountDownLatch inCall = new CountDownLatch(1);
        AtomicReference<Throwable> seen = new AtomicReference<>();
        Thread run = Thread.ofVirtual().start(() -> {
            local.started(RUN);
            try {
                local.duringModelCall(RUN, () -> {
                    inCall.countDown();
                    Thread.sleep(30_000);
                    return "late";
                });
            } catch (Exception e) {
                seen.set(e);
            } finally {
                local.ended(RUN);
            }
        });
        assertThat(inCall.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(local.awaitEmpty(Instant.now().plusMillis(100))).as("still running").isFalse();
        local.handOff();
        assertThat(local.awaitEmpty(Instant.now().plusSeconds(5))).isTrue();
        run.join();
        assertThat(seen.get()).isInstanceOf(InterruptedException.class);
    }

    @Test
    void aRunOutsideAModelCallIsNotInterruptedByAHandOff() throws Exception {
        LocalRuns local = new LocalRuns();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Thread run = Thread.ofVirtual().start(() -> {
            local.started(RUN);
            started.countDown();
            try {
                release.await(); // a tool call in flight: finishes first
            } catch (InterruptedException e) {
                interrupted.set(true);
            } finally {
                local.ended(RUN);
            }
        });
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        local.handOff();
        release.countDown();
        run.join();
        assertThat(interrupted).isFalse();
        assertThat(local.awaitEmpty(Instant.now())).isTrue();
    }
}
