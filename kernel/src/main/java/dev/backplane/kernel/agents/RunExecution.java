package dev.backplane.kernel.agents;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.broadcast.Activity;
import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.identity.Subjects;
import dev.backplane.kernel.persistence.Lease;
import dev.langchain4j.model.chat.StreamingChatModel;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * Executing one run on this kernel: who it acts as, its lease heartbeat, the loop, and how it ends — finished
 * with its audit row, or handed off to another replica at a safe point. Launching a claimed run (fresh or
 * resumed from its checkpoint) ends here too; a run that cannot start fails at once and is never retried.
 */
final class RunExecution {

    private static final System.Logger LOG = System.getLogger(AgentRuns.class.getName());

    private final AgentRunStore store;
    private final LocalRuns local;
    private final AgentDefinitions definitions;
    private final ModelGateway models;
    private final RunLoop loop;
    private final AuditLog audit;
    private final Lease lease;
    private final BroadcastFeed broadcast;

    RunExecution(AgentRunStore store, LocalRuns local, AgentDefinitions definitions, ModelGateway models,
                 AgentToolbox tools, AuditLog audit, Lease lease, BroadcastFeed broadcast) {
        this.store = store;
        this.local = local;
        this.definitions = definitions;
        this.models = models;
        this.audit = audit;
        this.lease = lease;
        this.broadcast = broadcast;
        this.loop = new RunLoop(store, local, tools);
    }

    /** The definition, if a run of it may start: it exists in the tenant and is enabled. */
    AgentDefinition runnable(UUID tenant, String name) {
        AgentDefinition def = definitions.show(tenant, name);
        if (!def.enabled()) {
            throw AgentRunErrors.AGENT_DISABLED.error("agent definition '" + name + "' is disabled (svc agent edit "
                    + name + " --enabled)");
        }
        return def;
    }

    StreamingChatModel model(AgentDefinition def) {
        return models.model(def.modelTier());
    }

    /**
     * Who a run acts as: the definition's agent principal, in the run's session, under the subject
     * {@code svc-agent:<principal>} that no token can carry (review 3, S1): a run never acts as, reads the
     * private memory of, or is audited as a person, whatever the principal is named.
     */
    static Caller actingAs(AgentDefinition def, UUID tenant, UUID handle) {
        return new Caller(Subjects.agentRun(def.identityRef()), Optional.empty(), Optional.of(tenant), tenant,
                Role.OPERATOR, false, PrincipalKind.AGENT, Optional.of(def.identityRef()), Optional.of(handle));
    }

    /**
     * How a run that threw ends: run-cancel interrupts its thread to stop a model call in flight, so an
     * interrupted run whose cancel was asked for is cancelled, not broken; anything else fails it.
     */
    static RunLoop.Outcome afterThrow(boolean interrupted, BooleanSupplier cancelRequested, Throwable e) {
        if (interrupted && cancelRequested.getAsBoolean()) {
            return RunLoop.Outcome.cancelled("cancelled", "cancelled by run-cancel", 0);
        }
        return RunLoop.Outcome.failed("internal_error", "the run failed: " + e.getClass().getSimpleName(), 0);
    }

    /** Runs the loop from the start ({@code input}) or from where another replica handed the run off. */
    void execute(UUID handle, AgentDefinition def, Caller agent, String startedBy, StreamingChatModel model,
                 Optional<RunCheckpoint> resumed, String input, Optional<String> workRef) {
        local.started(handle);
        if (resumed.isEmpty()) {
            announce(agent, def, startedBy, "start", AgentRun.Status.RUNNING, handle, workRef, Optional.empty());
        }
        // renewed while the row is leased at all (a hand-off or the final write releases it; the stop ends the beat)
        Lease.Heartbeat heartbeat = lease.keepAlive("agent-run-lease-" + handle, until -> {
            store.renewLease(handle, until);
            return true;
        });
        RunLoop.Outcome outcome;
        try {
            store.setStatus(handle, AgentRun.Status.RUNNING, Optional.empty());
            outcome = resumed.isPresent() ? loop.run(handle, def, agent, model, resumed.get(), workRef)
                    : loop.run(handle, def, agent, model, input, workRef);
        } catch (RunCheckpoint.HandedOff h) {
            heartbeat.stop();
            Thread.interrupted(); // the hand-off's interrupt must not break the writes that hand the run off
            handedOff(handle, h.checkpoint()); // before the finally below: awaitHandedOff waits for the row
            return;
        } catch (RuntimeException | Error e) {
            boolean interrupted = Thread.interrupted();
            outcome = afterThrow(interrupted, () -> store.cancelRequested(handle), e);
            if (outcome.status() == AgentRun.Status.FAILED) {
                LOG.log(Level.WARNING, "agent run " + handle + " failed: " + e);
            }
        } finally {
            heartbeat.stop();
            local.ended(handle);
            Thread.interrupted(); // a cancel's interrupt must not break the final write
        }
        finish(handle, agent, def, outcome);
        announce(agent, def, startedBy, "completion", outcome.status(), handle, workRef, outcome.errorCode());
    }

    /**
     * Stores where the run stands and gives it back to the launchers: pending, unleased, its checkpoint on the
     * row, a {@code handed_off} event, and a launch notice every replica hears (this one no longer claims).
     */
    private void handedOff(UUID handle, RunCheckpoint at) {
        try {
            store.handOff(handle, at.toJson());
            store.event(handle, "handed_off", Map.of("turn", at.turn(), "reason",
                    "the kernel running it is shutting down; another replica continues the run from here"));
            LOG.log(Level.INFO, "agent run " + handle + " handed off at turn " + at.turn());
        } catch (RuntimeException e) {
            // the row keeps its lease, which lapses: the reaper fails the run as before (never run twice)
            LOG.log(Level.WARNING, "agent run " + handle + " could not be handed off (" + e.getMessage() + ")");
        }
    }

    /** A run's start and finish on the tenant's activity feed. */
    private void announce(Caller agent, AgentDefinition def, String startedBy, String phase, AgentRun.Status status,
                          UUID handle, Optional<String> workRef, Optional<String> errorCode) {
        broadcast.publish(Activity.of(agent.tenantId(), Activity.Kind.RUN, "agent run of " + def.name()
                        + (phase.equals("start") ? " started" : " " + status.wire()), agent.sub(), startedBy,
                        Optional.of(status.wire()))
                .withPhase(phase).withWork(workRef, Optional.of(handle.toString())).withErrorCode(errorCode));
    }

    /** The run's outcome and its audit row, in one transaction. */
    private void finish(UUID handle, Caller agent, AgentDefinition def, RunLoop.Outcome o) {
        store.inTransaction(c -> {
            AgentRunStore.finish(c, handle, o);
            audit.recordIn(c, AuditLog.Entry.of(agent.tenantId(), agent.sub(), PrincipalKind.AGENT,
                    AuditClass.OTHER, "svc.agent_runs.run").target(def.name()).session(handle),
                    o.status().auditOutcome(), o.errorCode(), Optional.empty(),
                    Map.of("status", o.status().wire(), "turns", o.turns()));
            return null;
        });
    }

    /** Executes a run this replica claimed; one that cannot start (definition gone or disabled, no model) fails. */
    void launch(AgentRunStore.Claimed c) {
        UUID handle = c.handle();
        AgentDefinition def;
        StreamingChatModel model;
        try {
            def = runnable(c.tenant(), c.agent());
            model = model(def);
        } catch (DomainException e) {
            // a run refused before it starts is logged once and failed, never retried
            LOG.log(Level.WARNING, "agent run " + handle + " of '" + c.agent() + "' refused: " + e.code() + ": "
                    + e.getMessage());
            store.failUnstarted(handle, e.getMessage(), e.code());
            return;
        }
        Optional<String> resumeState = Optional.ofNullable(c.resume());
        Optional<RunCheckpoint> resumed;
        try {
            resumed = resumeState.map(RunCheckpoint::fromJson);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "agent run " + handle + ": its hand-off state is unreadable (" + e.getMessage() + ")");
            store.failUnstarted(handle, "the state it was handed off with is unreadable", "internal_error");
            return;
        }
        resumed.ifPresent(r -> store.event(handle, "resumed", Map.of("turn", r.turn())));
        execute(handle, def, actingAs(def, c.tenant(), handle), c.startedBy(), model, resumed,
                c.input() == null ? "" : c.input(),
                resumeState.isPresent() ? Optional.ofNullable(c.workRef()) : Optional.empty());
    }
}
