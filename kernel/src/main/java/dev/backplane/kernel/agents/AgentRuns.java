package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Subjects;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.Lease;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.Paging;
import dev.langchain4j.model.chat.StreamingChatModel;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Agent runs: start (now, or in the background with a handle), show, list, cancel, their events, and
 * the reaper. A run is a row in PostgreSQL from its first moment; while one executes, its kernel holds
 * a lease on the row and renews it. A run whose lease lapses unfinished (its kernel died) is failed by
 * the reaper and audited — never re-run, because a governed write may not be safe to repeat. A kernel that
 * shuts down gracefully hands its runs off instead ({@link #handOff()}): each stops at the next point where
 * nothing is lost, its {@link RunCheckpoint} is stored on the row, and another replica's launcher continues it.
 */
public final class AgentRuns {

    /** The body of a run request. */
    public record Start(String input, Boolean async, String workRef) {
    }

    /** One thing that happened in a run (turn started, tool call, tool result, approval parked, output). */
    public record Event(int seq, String kind, JsonNode payload, Instant occurredAt) {
    }

    static final int MAX_INPUT_CHARS = 65_536;
    public static final Paging.Size PAGE = new Paging.Size(100, 500);
    static final String LAUNCH_TOPIC = "agents.launch";

    private final AgentRunStore store;
    private final AuditLog audit;
    private final Lease lease;
    private final LocalRuns local = new LocalRuns();
    private final RunExecution execution;

    public AgentRuns(Jdbc jdbc, AgentDefinitions definitions, ModelGateway models, AgentToolbox tools,
                     AuditLog audit, Duration lease, BroadcastFeed broadcast) {
        this.store = new AgentRunStore(jdbc);
        this.audit = audit;
        this.lease = new Lease(lease);
        this.execution = new RunExecution(store, local, definitions, models, tools, audit, this.lease, broadcast);
    }

    /**
     * Starts a run of agent {@code name}. Synchronous: answers when the run has finished (or parked for an
     * approval it then waits out). Asynchronous: answers the pending run at once.
     */
    public AgentRun start(Caller caller, String name, Start s) {
        // review 3, S2: a run acts as the definition's principal with its grants, so an agent or a service starting
        // one would escape its own bounds
        caller.requireHuman("starting an agent run (it acts as the definition's agent principal, with its grants)");
        checkInput(s.input());
        AgentDefinition def = execution.runnable(caller.tenantId(), name);
        StreamingChatModel model = execution.model(def); // 503 before any row when no model is configured
        UUID handle = UUID.randomUUID();
        boolean async = Boolean.TRUE.equals(s.async());
        store.insertStarted(handle, caller.tenantId(), name, async ? AgentRun.Status.PENDING : AgentRun.Status.RUNNING,
                caller.sub(), s.workRef(), Digests.sha256Hex(s.input()), lease.untilFromNow());
        Runnable body = () -> execution.execute(handle, def, RunExecution.actingAs(def, caller.tenantId(), handle),
                caller.sub(), model, Optional.empty(), s.input(), Optional.ofNullable(s.workRef()));
        if (async) {
            Thread.ofVirtual().name("agent-run-" + handle).start(body);
        } else {
            body.run();
        }
        return show(caller.tenantId(), handle);
    }

    /** A run's prompt: present and at most {@link #MAX_INPUT_CHARS} characters. */
    static void checkInput(String input) {
        if (input == null || input.isBlank()) {
            throw AgentRunErrors.INVALID_RUN.error("input is required: the prompt of the run", Map.of("field", "input"));
        }
        if (input.length() > MAX_INPUT_CHARS) {
            throw AgentRunErrors.INVALID_RUN.error("input is longer than " + MAX_INPUT_CHARS + " characters",
                    Map.of("field", "input"));
        }
    }

    /**
     * Starts handing this kernel's runs off (graceful shutdown): no more runs are launched here, a model call
     * in flight is cut off, and each run stops at its next safe point and is continued by another replica.
     * A tool call in flight finishes first (a governed write is never cut off or repeated).
     */
    public void handOff() {
        local.handOff();
    }

    /** Whether this kernel is handing its runs off. */
    public boolean handingOff() {
        return local.handingOff();
    }

    /** Waits until no run executes on this kernel any more, or {@code deadline}; true when none does. */
    public boolean awaitHandedOff(Instant deadline) throws InterruptedException {
        return local.awaitEmpty(deadline);
    }

    /**
     * The people accountable for run {@code handle}, for four-eyes on the calls it parks (review 3, S3): whoever
     * started it (a person over the API), the author of the trigger ({@code svc-trigger:<id>}) or dashboard
     * ({@code svc-dashboard:<id>}) that started it, and the author of its definition. Empty for a session that is
     * not an agent run.
     */
    public static Map<String, String> accountable(Connection c, UUID tenant, UUID handle) throws SQLException {
        return accountable(handle, AgentRunStore.parties(c, tenant, handle));
    }

    /** Each accountable person once, with why: the starter unless a service, then the authors, first reason wins. */
    static Map<String, String> accountable(UUID handle, List<AgentRunStore.Parties> rows) {
        Map<String, String> parties = new LinkedHashMap<>();
        for (AgentRunStore.Parties r : rows) {
            if (!Subjects.reserved(r.startedBy())) {
                parties.put(r.startedBy(), "who started agent run " + handle);
            }
            if (r.triggerAuthor() != null) {
                parties.putIfAbsent(r.triggerAuthor(), "the author of the trigger that started agent run " + handle);
            }
            if (r.dashboardAuthor() != null) {
                parties.putIfAbsent(r.dashboardAuthor(), "the author of the dashboard that started agent run " + handle);
            }
            if (r.definitionAuthor() != null) {
                parties.putIfAbsent(r.definitionAuthor(), "the author of agent definition '" + r.agentName() + "'");
            }
        }
        return parties;
    }

    /**
     * Enqueues a run on the caller's transaction (a trigger firing inside the event drain's): a pending row
     * with its prompt, launched after commit by whichever replica's launcher claims it first. Committed
     * with the firing or not at all, so an event fires its run exactly once.
     */
    public void enqueue(Connection c, UUID handle, UUID tenant, String agentName, String startedBy, String input,
                        UUID triggerId, UUID eventId) throws SQLException {
        AgentRunStore.enqueue(c, handle, tenant, agentName, startedBy, Digests.sha256Hex(input), input, triggerId,
                eventId);
    }

    /**
     * Claims enqueued runs ({@code FOR UPDATE SKIP LOCKED}: one replica each), clears their prompt and
     * executes each on its own virtual thread. A run that cannot start (definition gone or disabled, no
     * model) fails at once with its reason and is not retried.
     */
    public int launchPending() {
        if (local.handingOff()) {
            return 0;
        }
        List<AgentRunStore.Claimed> claimed = store.claimPending(lease.untilFromNow());
        for (AgentRunStore.Claimed c : claimed) {
            Thread.ofVirtual().name("agent-run-" + c.handle()).start(() -> execution.launch(c));
        }
        return claimed.size();
    }

    /** Launches enqueued runs as soon as their enqueueing commits, on whichever replica hears it first. */
    public void launchOnNotice(ChangeFeed feed) {
        feed.subscribe(LAUNCH_TOPIC, key -> Thread.ofVirtual().name("agent-run-launcher").start(this::launchPending));
    }

    public AgentRun show(UUID tenant, UUID handle) {
        return store.find(tenant, handle)
                .orElseThrow(() -> AgentRunErrors.RUN_NOT_FOUND.error("no agent run " + handle + " in this tenant"));
    }

    public List<AgentRun> list(UUID tenant, Optional<String> agentName, Optional<String> status, Optional<String> workRef,
                               int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        if (status.isPresent() && AgentRun.Status.parse(status.get()).isEmpty()) {
            throw CommonErrors.INVALID_STATUS.error("status must be one of " + new TreeSet<>(Arrays.stream(
                    AgentRun.Status.values()).map(AgentRun.Status::wire).toList()), Map.of("field", "status"));
        }
        return store.list(tenant, agentName, status, workRef, page.limit(), page.offset());
    }

    /**
     * Cancels a run that has not finished: a pending run at once; a running one at its next turn or tool
     * call (the model call in flight on this replica is interrupted).
     */
    public AgentRun cancel(Caller caller, UUID handle) {
        AgentRun run = show(caller.tenantId(), handle);
        if (!run.state().canMoveTo(AgentRun.Status.CANCELLED)) {
            throw AgentRunErrors.RUN_FINISHED.error("run " + handle + " already " + run.status());
        }
        store.requestCancel(handle);
        store.cancelPending(handle);
        local.interrupt(handle);
        return show(caller.tenantId(), handle);
    }

    /** The status of each of these runs of the tenant (runs of other tenants and unknown handles are left out). */
    public Map<UUID, String> statuses(UUID tenant, Collection<UUID> handles) {
        if (handles.isEmpty()) {
            return Map.of();
        }
        return store.statuses(tenant, handles);
    }

    public List<Event> events(UUID tenant, UUID handle) {
        show(tenant, handle);
        return store.events(handle);
    }

    /**
     * Fails runs whose lease lapsed unfinished (their kernel died); never re-runs them. The failure and
     * its audit row commit together, so no orphan is ever failed without its trail.
     */
    public int reapOrphans() {
        return store.inTransaction(c -> {
            List<AgentRunStore.Orphan> reaped = AgentRunStore.reapOrphans(c);
            for (AgentRunStore.Orphan o : reaped) {
                audit.recordIn(c, AuditLog.Entry.byService(o.tenant(), "svc-reaper", AuditClass.OTHER,
                        "svc.agent_runs.orphaned").target(o.agent()).session(o.handle()), "error",
                        Optional.of("run_orphaned"), Optional.empty(), Map.of());
            }
            return reaped.size();
        });
    }

    /** What runs by itself: launching pending runs (any replica), and failing runs whose kernel died. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("agent-run-reaper", Duration.ofSeconds(15), this::reapOrphans),
                new PeriodicJob("agent-run-launcher", Duration.ofSeconds(5), this::launchPending));
    }
}
