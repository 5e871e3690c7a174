package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.broadcast.Activity;
import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.identity.Subjects;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.Lease;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.Paging;
import dev.langchain4j.model.chat.StreamingChatModel;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

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
    private static final Set<String> STATUSES = Arrays.stream(AgentRun.Status.values())
            .map(AgentRun.Status::wire).collect(Collectors.toUnmodifiableSet());
    static final String LAUNCH_TOPIC = "agents.launch";
    private static final System.Logger LOG = System.getLogger(AgentRuns.class.getName());

    private final Jdbc jdbc;
    private final AgentDefinitions definitions;
    private final ModelGateway models;
    private final RunLoop loop;
    private final AuditLog audit;
    private final Lease lease;
    private final Map<UUID, Thread> local = new ConcurrentHashMap<>();
    /** Runs of this kernel waiting for a model answer: a hand-off may cut those calls off (guarded by itself). */
    private final Set<UUID> inModelCall = new java.util.HashSet<>();
    private volatile boolean handingOff;
    private final BroadcastFeed broadcast;

    public AgentRuns(Jdbc jdbc, AgentDefinitions definitions, ModelGateway models, AgentToolbox tools,
                     AuditLog audit, Duration lease, BroadcastFeed broadcast) {
        this.jdbc = jdbc;
        this.broadcast = broadcast;
        this.definitions = definitions;
        this.models = models;
        this.audit = audit;
        this.lease = new Lease(lease);
        this.loop = new RunLoop(this, tools);
    }

    /**
     * Starts a run of agent {@code name}. Synchronous: answers when the run has finished (or parked for an
     * approval it then waits out). Asynchronous: answers the pending run at once.
     */
    public AgentRun start(Caller caller, String name, Start s) {
        // review 3, S2: a run acts as the definition's principal with its grants, so an agent or a service starting
        // one would escape its own bounds
        caller.requireHuman("starting an agent run (it acts as the definition's agent principal, with its grants)");
        if (s.input() == null || s.input().isBlank()) {
            throw AgentRunErrors.INVALID_RUN.error("input is required: the prompt of the run", Map.of("field", "input"));
        }
        if (s.input().length() > MAX_INPUT_CHARS) {
            throw AgentRunErrors.INVALID_RUN.error("input is longer than " + MAX_INPUT_CHARS + " characters",
                    Map.of("field", "input"));
        }
        AgentDefinition def = runnable(caller.tenantId(), name);
        StreamingChatModel model = models.model(def.modelTier()); // 503 before any row when no model is configured
        UUID handle = UUID.randomUUID();
        boolean async = Boolean.TRUE.equals(s.async());
        jdbc.update("""
                INSERT INTO agent_runs (handle, tenant_id, agent_name, status, started_by, work_ref, input_sha256,
                                        lease_owner, lease_until)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""", handle, caller.tenantId(), name,
                (async ? AgentRun.Status.PENDING : AgentRun.Status.RUNNING).wire(), caller.sub(), s.workRef(), Digests.sha256Hex(s.input()),
                handle.toString(), lease.untilFromNow());
        Runnable body = () -> execute(handle, def, actingAs(def, caller.tenantId(), handle), caller.sub(), model,
                Optional.empty(), s.input(), Optional.ofNullable(s.workRef()));
        if (async) {
            Thread.ofVirtual().name("agent-run-" + handle).start(body);
        } else {
            body.run();
        }
        return show(caller.tenantId(), handle);
    }

    /** The definition, if a run of it may start: it exists in the tenant and is enabled. */
    private AgentDefinition runnable(UUID tenant, String name) {
        AgentDefinition def = definitions.show(tenant, name);
        if (!def.enabled()) {
            throw AgentRunErrors.AGENT_DISABLED.error("agent definition '" + name + "' is disabled (svc agent edit "
                    + name + " --enabled)");
        }
        return def;
    }

    /**
     * Who a run acts as: the definition's agent principal, in the run's session, under the subject
     * {@code svc-agent:<principal>} that no token can carry (review 3, S1): a run never acts as, reads the
     * private memory of, or is audited as a person, whatever the principal is named.
     */
    private static Caller actingAs(AgentDefinition def, UUID tenant, UUID handle) {
        return new Caller(Subjects.agentRun(def.identityRef()), Optional.empty(), Optional.of(tenant), tenant,
                Role.OPERATOR, false, PrincipalKind.AGENT, Optional.of(def.identityRef()), Optional.of(handle));
    }

    /** Runs the loop from the start ({@code input}) or from where another replica handed the run off. */
    private void execute(UUID handle, AgentDefinition def, Caller agent, String startedBy, StreamingChatModel model,
                         Optional<RunCheckpoint> resumed, String input, Optional<String> workRef) {
        local.put(handle, Thread.currentThread());
        if (resumed.isEmpty()) {
            announce(agent, def, startedBy, "start", AgentRun.Status.RUNNING, handle, workRef, Optional.empty());
        }
        // renewed while the row is leased at all (a hand-off or the final write releases it; the stop ends the beat)
        Lease.Heartbeat heartbeat = lease.keepAlive("agent-run-lease-" + handle, until -> {
            jdbc.update("UPDATE agent_runs SET lease_until = ? WHERE handle = ? AND lease_owner IS NOT NULL", until,
                    handle);
            return true;
        });
        RunLoop.Outcome outcome;
        try {
            setStatus(handle, AgentRun.Status.RUNNING, Optional.empty());
            outcome = resumed.isPresent() ? loop.run(handle, def, agent, model, resumed.get(), workRef)
                    : loop.run(handle, def, agent, model, input, workRef);
        } catch (RunCheckpoint.HandedOff h) {
            heartbeat.stop();
            Thread.interrupted(); // the hand-off's interrupt must not break the writes that hand the run off
            handedOff(handle, h.checkpoint()); // before the finally below: awaitHandedOff waits for the row
            return;
        } catch (RuntimeException | Error e) {
            // run-cancel interrupts this thread to stop a model call in flight; if that landed in a database
            // call instead, the run was still cancelled, not broken
            boolean interrupted = Thread.interrupted();
            if (interrupted && cancelRequested(handle)) {
                outcome = RunLoop.Outcome.cancelled("cancelled", "cancelled by run-cancel", 0);
            } else {
                LOG.log(Level.WARNING, "agent run " + handle + " failed: " + e);
                outcome = RunLoop.Outcome.failed("internal_error", "the run failed: " + e.getClass().getSimpleName(), 0);
            }
        } finally {
            heartbeat.stop();
            local.remove(handle);
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
            jdbc.inTransaction(c -> {
                int n = Jdbc.update(c, """
                        UPDATE agent_runs SET status = 'pending', resume_state = ?::jsonb, lease_owner = NULL,
                               lease_until = NULL, updated_at = now()
                        WHERE handle = ? AND status IN ('pending', 'running', 'awaiting_approval')""",
                        at.toJson(), handle);
                if (n == 1) {
                    ChangeFeed.notifyOnCommit(c, LAUNCH_TOPIC, handle.toString());
                }
                return null;
            });
            event(handle, "handed_off", Map.of("turn", at.turn(), "reason",
                    "the kernel running it is shutting down; another replica continues the run from here"));
            LOG.log(Level.INFO, "agent run " + handle + " handed off at turn " + at.turn());
        } catch (RuntimeException e) {
            // the row keeps its lease, which lapses: the reaper fails the run as before (never run twice)
            LOG.log(Level.WARNING, "agent run " + handle + " could not be handed off (" + e.getMessage() + ")");
        }
    }

    /**
     * Starts handing this kernel's runs off (graceful shutdown): no more runs are launched here, a model call
     * in flight is cut off, and each run stops at its next safe point and is continued by another replica.
     * A tool call in flight finishes first (a governed write is never cut off or repeated).
     */
    public void handOff() {
        handingOff = true;
        synchronized (inModelCall) {
            inModelCall.forEach(h -> Optional.ofNullable(local.get(h)).ifPresent(Thread::interrupt));
        }
    }

    /** Whether this kernel is handing its runs off. */
    public boolean handingOff() {
        return handingOff;
    }

    /** Waits until no run executes on this kernel any more, or {@code deadline}; true when none does. */
    public boolean awaitHandedOff(Instant deadline) throws InterruptedException {
        while (!local.isEmpty()) {
            if (Instant.now().isAfter(deadline)) {
                LOG.log(Level.WARNING, local.size() + " agent run(s) still in a tool call at shutdown; their leases "
                        + "lapse and the reaper fails them (a governed write is never repeated)");
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /** A model call of run {@code handle}, which a hand-off may interrupt (and only while it is one). */
    <T> T duringModelCall(UUID handle, ModelCall<T> call) throws InterruptedException,
            java.util.concurrent.ExecutionException {
        synchronized (inModelCall) {
            if (handingOff) {
                throw new InterruptedException("handing off");
            }
            inModelCall.add(handle);
        }
        try {
            return call.get();
        } finally {
            synchronized (inModelCall) {
                inModelCall.remove(handle);
                if (handingOff) {
                    Thread.interrupted(); // a hand-off's interrupt that came as the answer did is not a cancel
                }
            }
        }
    }

    /** A blocking model call. */
    @FunctionalInterface
    interface ModelCall<T> {
        T get() throws InterruptedException, java.util.concurrent.ExecutionException;
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
        jdbc.inTransaction(c -> {
            Jdbc.update(c, """
                    UPDATE agent_runs SET status = ?, output = ?, error = ?, error_code = ?, turns = ?, lease_owner = NULL,
                           lease_until = NULL, updated_at = now(), finished_at = now()
                    WHERE handle = ? AND status IN ('pending', 'running', 'awaiting_approval')""",
                    o.status().wire(), o.output().map(Jdbc::jsonb).orElse(null), o.error().orElse(null),
                    o.errorCode().orElse(null), o.turns(), handle);
            audit.recordIn(c, AuditLog.Entry.of(agent.tenantId(), agent.sub(), PrincipalKind.AGENT,
                    AuditClass.OTHER, "svc.agent_runs.run").target(def.name()).session(handle), o.status() == AgentRun.Status.SUCCEEDED ? "ok"
                    : o.status() == AgentRun.Status.CANCELLED ? "denied" : "error", o.errorCode(), Optional.empty(),
                    Map.of("status", o.status().wire(), "turns", o.turns()));
            return null;
        });
    }

    /**
     * The people accountable for run {@code handle}, for four-eyes on the calls it parks (review 3, S3): whoever
     * started it (a person over the API), the author of the trigger ({@code svc-trigger:<id>}) or dashboard
     * ({@code svc-dashboard:<id>}) that started it, and the author of its definition. Empty for a session that is
     * not an agent run.
     */
    public static Map<String, String> accountable(Connection c, UUID tenant, UUID handle) throws SQLException {
        Map<String, String> parties = new java.util.LinkedHashMap<>();
        List<String[]> rows = Jdbc.query(c, """
                SELECT r.started_by, t.created_by, db.created_by, d.created_by, r.agent_name
                  FROM agent_runs r
                  LEFT JOIN scheduler_triggers t ON t.id = r.trigger_id AND t.tenant_id = r.tenant_id
                  LEFT JOIN dashboards db ON db.tenant_id = r.tenant_id AND r.started_by = 'svc-dashboard:' || db.id::text
                  LEFT JOIN agent_definitions d ON d.tenant_id = r.tenant_id AND d.name = r.agent_name
                 WHERE r.tenant_id = ? AND r.handle = ?""", rs -> new String[] {rs.getString(1), rs.getString(2),
                rs.getString(3), rs.getString(4), rs.getString(5)}, tenant, handle);
        for (String[] r : rows) {
            if (!Subjects.reserved(r[0])) {
                parties.put(r[0], "who started agent run " + handle);
            }
            if (r[1] != null) {
                parties.putIfAbsent(r[1], "the author of the trigger that started agent run " + handle);
            }
            if (r[2] != null) {
                parties.putIfAbsent(r[2], "the author of the dashboard that started agent run " + handle);
            }
            if (r[3] != null) {
                parties.putIfAbsent(r[3], "the author of agent definition '" + r[4] + "'");
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
        Jdbc.update(c, """
                INSERT INTO agent_runs (handle, tenant_id, agent_name, status, started_by, input_sha256, pending_input,
                                        trigger_id, event_id)
                VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?)""", handle, tenant, agentName, startedBy,
                Digests.sha256Hex(input), input, triggerId, eventId);
        ChangeFeed.notifyOnCommit(c, LAUNCH_TOPIC, handle.toString());
    }

    /**
     * Claims enqueued runs ({@code FOR UPDATE SKIP LOCKED}: one replica each), clears their prompt and
     * executes each on its own virtual thread. A run that cannot start (definition gone or disabled, no
     * model) fails at once with its reason and is not retried.
     */
    public int launchPending() {
        if (handingOff) {
            return 0;
        }
        record Claimed(UUID handle, UUID tenant, String agent, String input, String startedBy, String resume,
                       String workRef) {
        }
        List<Claimed> claimed = jdbc.inTransaction(c -> Jdbc.query(c, """
                UPDATE agent_runs r SET status = 'running', pending_input = NULL, resume_state = NULL,
                       lease_owner = r.handle::text, lease_until = ?, updated_at = now()
                FROM (SELECT handle, pending_input, resume_state FROM agent_runs WHERE status = 'pending'
                      AND (pending_input IS NOT NULL OR resume_state IS NOT NULL)
                      AND NOT cancel_requested ORDER BY created_at LIMIT 20 FOR UPDATE SKIP LOCKED) p
                WHERE r.handle = p.handle
                RETURNING r.handle, r.tenant_id, r.agent_name, p.pending_input, r.started_by, p.resume_state::text,
                          r.work_ref""",
                rs -> new Claimed(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7)),
                lease.untilFromNow()));
        for (Claimed c : claimed) {
            Thread.ofVirtual().name("agent-run-" + c.handle()).start(() -> launch(c.handle(), c.tenant(), c.agent(),
                    c.input(), c.startedBy(), Optional.ofNullable(c.resume()), Optional.ofNullable(c.workRef())));
        }
        return claimed.size();
    }

    /** Launches enqueued runs as soon as their enqueueing commits, on whichever replica hears it first. */
    public void launchOnNotice(ChangeFeed feed) {
        feed.subscribe(LAUNCH_TOPIC, key -> Thread.ofVirtual().name("agent-run-launcher").start(this::launchPending));
    }

    private void launch(UUID handle, UUID tenant, String agentName, String input, String startedBy,
                        Optional<String> resumeState, Optional<String> workRef) {
        AgentDefinition def;
        StreamingChatModel model;
        try {
            def = runnable(tenant, agentName);
            model = models.model(def.modelTier());
        } catch (DomainException e) {
            // a run refused before it starts is logged once and failed, never retried
            LOG.log(Level.WARNING, "agent run " + handle + " of '" + agentName + "' refused: " + e.code() + ": "
                    + e.getMessage());
            jdbc.update("""
                    UPDATE agent_runs SET status = 'failed', error = ?, error_code = ?, finished_at = now(),
                           lease_owner = NULL, lease_until = NULL, updated_at = now() WHERE handle = ?""",
                    e.getMessage(), e.code(), handle);
            return;
        }
        Optional<RunCheckpoint> resumed;
        try {
            resumed = resumeState.map(RunCheckpoint::fromJson);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "agent run " + handle + ": its hand-off state is unreadable (" + e.getMessage() + ")");
            jdbc.update("""
                    UPDATE agent_runs SET status = 'failed', error = 'the state it was handed off with is unreadable',
                           error_code = 'internal_error', finished_at = now(), lease_owner = NULL, lease_until = NULL,
                           updated_at = now() WHERE handle = ?""", handle);
            return;
        }
        resumed.ifPresent(r -> event(handle, "resumed", Map.of("turn", r.turn())));
        execute(handle, def, actingAs(def, tenant, handle), startedBy, model, resumed, input == null ? "" : input,
                resumeState.isPresent() ? workRef : Optional.empty());
    }

    public AgentRun show(UUID tenant, UUID handle) {
        return jdbc.queryOne("SELECT * FROM agent_runs WHERE tenant_id = ? AND handle = ?", AgentRuns::row, tenant, handle)
                .orElseThrow(() -> AgentRunErrors.RUN_NOT_FOUND.error("no agent run " + handle + " in this tenant"));
    }

    public List<AgentRun> list(UUID tenant, Optional<String> agentName, Optional<String> status, Optional<String> workRef,
                               int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        if (status.isPresent() && !STATUSES.contains(status.get())) {
            throw CommonErrors.INVALID_STATUS.error("status must be one of " + new java.util.TreeSet<>(STATUSES),
                    Map.of("field", "status"));
        }
        return jdbc.query("""
                SELECT * FROM agent_runs WHERE tenant_id = ? AND (?::text IS NULL OR agent_name = ?)
                  AND (?::text IS NULL OR status = ?) AND (?::text IS NULL OR work_ref = ?)
                ORDER BY created_at DESC, handle LIMIT ? OFFSET ?""", AgentRuns::row, tenant,
                agentName.orElse(null), agentName.orElse(null), status.orElse(null), status.orElse(null),
                workRef.orElse(null), workRef.orElse(null), page.limit(), page.offset());
    }

    /**
     * Cancels a run that has not finished: a pending run at once; a running one at its next turn or tool
     * call (the model call in flight on this replica is interrupted).
     */
    public AgentRun cancel(Caller caller, UUID handle) {
        AgentRun run = show(caller.tenantId(), handle);
        if (run.finished()) {
            throw AgentRunErrors.RUN_FINISHED.error("run " + handle + " already " + run.status());
        }
        jdbc.update("UPDATE agent_runs SET cancel_requested = true, updated_at = now() WHERE handle = ?", handle);
        jdbc.update("""
                UPDATE agent_runs SET status = 'cancelled', error = 'cancelled before it started', error_code = 'cancelled',
                       finished_at = now(), lease_owner = NULL, lease_until = NULL WHERE handle = ? AND status = 'pending'""",
                handle);
        Optional.ofNullable(local.get(handle)).ifPresent(Thread::interrupt);
        return show(caller.tenantId(), handle);
    }

    /** The status of each of these runs of the tenant (runs of other tenants and unknown handles are left out). */
    public Map<UUID, String> statuses(UUID tenant, java.util.Collection<UUID> handles) {
        if (handles.isEmpty()) {
            return Map.of();
        }
        Map<UUID, String> out = new java.util.HashMap<>();
        jdbc.query("SELECT handle, status FROM agent_runs WHERE tenant_id = ? AND handle = ANY(?::uuid[])",
                rs -> out.put(rs.getObject(1, UUID.class), rs.getString(2)), tenant,
                handles.stream().map(UUID::toString).toArray(String[]::new));
        return out;
    }

    public List<Event> events(UUID tenant, UUID handle) {
        show(tenant, handle);
        return jdbc.query("SELECT * FROM agent_run_events WHERE handle = ? ORDER BY seq", rs -> new Event(rs.getInt("seq"),
                rs.getString("kind"), readTree(rs.getString("payload")), rs.getTimestamp("occurred_at").toInstant()), handle);
    }

    /**
     * Fails runs whose lease lapsed unfinished (their kernel died); never re-runs them. The failure and
     * its audit row commit together, so no orphan is ever failed without its trail.
     */
    public int reapOrphans() {
        return jdbc.inTransaction(c -> {
            record Orphan(UUID handle, UUID tenant, String agent) {
            }
            List<Orphan> reaped = Jdbc.query(c, """
                    UPDATE agent_runs SET status = 'failed', error = 'the kernel running it stopped; not re-run (a '
                           || 'governed write may not be safe to repeat)', error_code = 'run_orphaned', finished_at = now(),
                           lease_owner = NULL, lease_until = NULL, updated_at = now()
                    WHERE status IN ('pending', 'running', 'awaiting_approval') AND lease_until < now()
                    RETURNING handle, tenant_id, agent_name""", rs -> new Orphan(rs.getObject(1, UUID.class),
                    rs.getObject(2, UUID.class), rs.getString(3)));
            for (Orphan o : reaped) {
                audit.recordIn(c, AuditLog.Entry.byService(o.tenant(), "svc-reaper", AuditClass.OTHER,
                        "svc.agent_runs.orphaned").target(o.agent()).session(o.handle()), "error",
                        Optional.of("run_orphaned"), Optional.empty(), Map.of());
            }
            return reaped.size();
        });
    }

    // --- state the loop reports

    boolean cancelRequested(UUID handle) {
        return jdbc.queryOne("SELECT cancel_requested FROM agent_runs WHERE handle = ?", rs -> rs.getBoolean(1), handle)
                .orElse(true);
    }

    void setStatus(UUID handle, AgentRun.Status status, Optional<UUID> approvalId) {
        jdbc.update("UPDATE agent_runs SET status = ?, approval_id = COALESCE(?, approval_id), updated_at = now() "
                + "WHERE handle = ? AND status IN ('pending', 'running', 'awaiting_approval')", status.wire(),
                approvalId.orElse(null), handle);
    }

    void event(UUID handle, String kind, Map<String, Object> payload) {
        jdbc.update("""
                INSERT INTO agent_run_events (handle, seq, kind, payload)
                VALUES (?, (SELECT COALESCE(max(seq), 0) + 1 FROM agent_run_events WHERE handle = ?), ?, ?)""",
                handle, handle, kind, Jdbc.jsonb(payload));
    }

    void turns(UUID handle, int turns) {
        jdbc.update("UPDATE agent_runs SET turns = ?, updated_at = now() WHERE handle = ?", turns, handle);
    }

    private static JsonNode readTree(String json) {
        try {
            return JsonMapping.mapper().readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static AgentRun row(ResultSet rs) throws SQLException {
        String output = rs.getString("output");
        Timestamp finished = rs.getTimestamp("finished_at");
        return new AgentRun(rs.getObject("handle", UUID.class), rs.getString("agent_name"), rs.getString("status"),
                Optional.ofNullable(rs.getString("work_ref")), rs.getString("started_by"), rs.getString("input_sha256"),
                rs.getInt("turns"), Optional.ofNullable(output).map(AgentRuns::readTree),
                Optional.ofNullable(rs.getString("error")), Optional.ofNullable(rs.getString("error_code")),
                Optional.ofNullable(rs.getObject("approval_id", UUID.class)), rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant(), Optional.ofNullable(finished).map(Timestamp::toInstant));
    }

    /** What runs by itself: launching pending runs (any replica), and failing runs whose kernel died. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("agent-run-reaper", Duration.ofSeconds(15), this::reapOrphans),
                new PeriodicJob("agent-run-launcher", Duration.ofSeconds(5), this::launchPending));
    }
}
