package dev.backplane.kernel.agents;

import dev.backplane.kernel.identity.Caller;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ChatMessage;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The stop rules of a run, checked before every turn and every tool call: cancelled (run-cancel, or the run's thread
 * interrupted), its agent principal revoked (kill switch), a hand-off when this replica shuts down, and the turn
 * budget spent.
 */
final class RunStops {

    private final AgentRunStore runs;
    private final LocalRuns local;
    private final AgentToolbox tools;

    RunStops(AgentRunStore runs, LocalRuns local, AgentToolbox tools) {
        this.runs = runs;
        this.local = local;
        this.tools = tools;
    }

    /**
     * Why the run must stop now, if it must: cancelled, or its principal revoked (kill switch); or, when this
     * replica is shutting down, a hand-off at the point given (the conversation, the next turn, the calls not
     * yet answered).
     */
    Optional<RunLoop.Outcome> stopped(UUID handle, Caller agent, int turns, List<ChatMessage> messages, int nextTurn,
                                      boolean repaired, List<ToolExecutionRequest> pending)
            throws RunCheckpoint.HandedOff {
        Optional<RunLoop.Outcome> stop = cancelledOrRevoked(handle, agent, turns);
        if (stop.isEmpty() && local.handingOff()) {
            throw new RunCheckpoint.HandedOff(new RunCheckpoint(messages, nextTurn, repaired, pending, Optional.empty()));
        }
        return stop;
    }

    Optional<RunLoop.Outcome> cancelledOrRevoked(UUID handle, Caller agent, int turns) {
        String principal = agent.clientId().orElse(agent.sub()); // the run's subject is svc-agent:<principal>
        if (tools.revoked(agent.tenantId(), principal)) {
            return Optional.of(RunLoop.Outcome.cancelled("principal_revoked", "agent principal " + principal
                    + " was revoked (kill switch)", turns));
        }
        if (runs.cancelRequested(handle) || (Thread.currentThread().isInterrupted() && !local.handingOff())) {
            return Optional.of(RunLoop.Outcome.cancelled("cancelled", "cancelled by run-cancel", turns));
        }
        return Optional.empty();
    }

    /** The end of a run that used every turn of its budget without a final output. */
    static RunLoop.Outcome budgetExhausted(int turnBudget) {
        return RunLoop.Outcome.failed("turn_budget_exhausted", "the run used its turn budget of " + turnBudget
                + " turns without a final output", turnBudget);
    }
}
