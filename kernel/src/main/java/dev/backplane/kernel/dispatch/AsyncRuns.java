package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.Lease;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.JsonMapping;
import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.postgresql.util.PGobject;

/**
 * Asynchronous calls: the caller gets a handle at once (HTTP 202) while the call runs through the
 * same pipeline on a virtual thread; the finished envelope is persisted on the run row. Raw params
 * are not stored, only their hash. A run whose lease lapses unfinished (its kernel died) is failed
 * by the reaper and never re-dispatched, because a governed write may not be safe to repeat.
 * Its rows are {@link DispatchRunStore}'s, its states {@link RunStatus}.
 */
public final class AsyncRuns {

    private static final System.Logger LOG = System.getLogger(AsyncRuns.class.getName());

    /** What the caller sees of a run. */
    public record Run(UUID handle, String status, String connectorId, String opId, String target,
                      Optional<String> workRef, Instant createdAt, Optional<Instant> finishedAt,
                      Optional<Map<String, Object>> result, String statusUrl) {
    }

    private final DispatchRunStore store;
    /** Where run-cancel and the reaper write their audit rows, in the same transaction as the run's row. */
    private final AuditLog audit;
    private final Lease lease;
    /** The threads of the runs in flight on this kernel, so run-cancel can interrupt them. */
    private final Map<UUID, Thread> local = new ConcurrentHashMap<>();

    /** Runs leased for the call timeout plus a minute (renewed while they run). */
    public AsyncRuns(Jdbc jdbc, Duration callTimeout) {
        this(callTimeout.plusSeconds(60), jdbc);
    }

    /**
     * @param lease how long a run stays claimed by this kernel without a heartbeat; renewed every third of
     *     it while the run is in flight, so only a run whose kernel died lapses, however long the call takes
     */
    private AsyncRuns(Duration lease, Jdbc jdbc) {
        this.store = new DispatchRunStore(jdbc);
        this.audit = new AuditLog(jdbc);
        this.lease = new Lease(lease);
    }

    /** Runs with exactly this lease (tests shorten it). */
    static AsyncRuns withLease(Jdbc jdbc, Duration lease) {
        return new AsyncRuns(lease, jdbc);
    }

    /** Records the run and starts {@code body} in the background; returns the handle at once. */
    public Run start(UUID tenant, String principal, CallRequest req, String paramsHash, Supplier<ResultEnvelope> body) {
        UUID id = UUID.randomUUID();
        store.insertRunning(id, tenant, principal, req, paramsHash, lease.untilFromNow());
        Thread.ofVirtual().name("async-run-" + id).start(() -> {
            local.put(id, Thread.currentThread());
            ResultEnvelope env;
            Lease.Heartbeat heartbeat = lease.keepAlive("async-run-lease-" + id, until -> store.renewLease(id, until));
            try {
                env = body.get();
            } catch (DomainException e) {
                env = new ResultEnvelope(ResultEnvelope.ERROR, req.opId(), null, e.getMessage(), 0,
                        Map.of("error_code", e.code()));
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "async run " + id + " failed unexpectedly", e);
                env = new ResultEnvelope(ResultEnvelope.ERROR, req.opId(), null, "internal error", 0,
                        Map.of("error_code", "internal_error"));
            } finally {
                heartbeat.stop();
                local.remove(id);
                Thread.interrupted(); // a run-cancel's interrupt must not break the (then skipped) final write
            }
            store.finishRunning(id, RunStatus.finishedAs(env.status()), env);
        });
        return show(tenant, principal, id);
    }

    /**
     * Graceful shutdown: waits until no run is in flight on this kernel, or {@code deadline}; true when none is.
     * A call in flight is never cut off (its effect on the target would be unknown); one still running at the
     * deadline keeps its lease, which lapses with this kernel, and the reaper fails it as before.
     */
    public boolean awaitIdle(Instant deadline) throws InterruptedException {
        while (!local.isEmpty()) {
            if (Instant.now().isAfter(deadline)) {
                LOG.log(Level.WARNING, local.size() + " asynchronous call(s) still in flight at shutdown; the reaper "
                        + "fails them when their lease lapses");
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /** The caller's own run; anyone else's is indistinguishable from a missing one. */
    public Run show(UUID tenant, String principal, UUID id) {
        return store.find(tenant, principal, id).orElseThrow(() -> DispatchErrors.RUN_NOT_FOUND.error("no run " + id
                + " of yours"));
    }

    /**
     * Cancels the caller's run that has not finished (running, pending or parked for approval): the row
     * becomes {@code cancelled} with a cancellation envelope, and its audit row ({@code svc.runs.cancelled},
     * naming the run) commits with it; then the call in flight on this kernel is interrupted. The call's own
     * outcome, when it comes, no longer changes the row (only a running row is finished). A run parked for
     * approval leaves its approval request as it is: the answer names it, to reject it as well. A finished
     * run answers {@code 409 run_finished} with its status; someone else's run is a missing one.
     */
    public Run cancel(Caller caller, UUID id) {
        store.inTransaction(c -> {
            DispatchRunStore.CancelRow row = DispatchRunStore.lockForCancel(c, id, caller.tenantId(), caller.sub())
                    .orElseThrow(() -> DispatchErrors.RUN_NOT_FOUND.error("no run " + id + " of yours"));
            String status = row.status().wireName();
            if (!row.status().canMoveTo(RunStatus.CANCELLED)) {
                throw DispatchErrors.RUN_FINISHED.error("run " + id + " already " + status + "; only a pending, "
                        + "running or awaiting_approval run can be cancelled", Map.of("status", status));
            }
            DispatchRunStore.markCancelled(c, id, cancelledEnvelope(caller.sub(), row.opId(), status, row.approval()));
            audit.recordIn(c, AuditLog.Entry.of(caller.tenantId(), caller.sub(), caller.kind(), AuditClass.OTHER,
                    "svc.runs.cancelled").connector(Optional.of(row.connectorId())).target(Optional.of(row.target()))
                    .workRef(Optional.ofNullable(row.workRef())), "ok", Optional.empty(), Optional.empty(),
                    Map.of("run_handle", id.toString(), "op_id", row.opId(), "previous_status", status));
            return null;
        });
        Optional.ofNullable(local.get(id)).ifPresent(Thread::interrupt);
        return show(caller.tenantId(), caller.sub(), id);
    }

    /** The envelope a cancelled run keeps: who cancelled it from which status, and the approval still open. */
    static Map<String, Object> cancelledEnvelope(String by, String opId, String previousStatus, String approval) {
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("error_code", "run_cancelled");
        extras.put("cancelled_by", by);
        extras.put("previous_status", previousStatus);
        if (approval != null) {
            extras.put("approval_request_id", approval);
        }
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("status", ResultEnvelope.ERROR);
        envelope.put("op_id", opId);
        envelope.put("result", null);
        envelope.put("error", "cancelled by run-cancel" + (approval == null ? "" : "; approval request "
                + approval + " is still open (svc approvals reject " + approval + ")"));
        envelope.put("duration_ms", 0);
        envelope.put("extras", extras);
        return envelope;
    }

    /** What a run handle that is not a uuid answers. */
    static DomainException notFound(String handle) {
        return DispatchErrors.RUN_NOT_FOUND.error("no run " + handle);
    }

    /**
     * Fails runs whose lease lapsed unfinished (their kernel died), never re-running them; each gets an
     * audit row ({@code svc.runs.orphaned}, naming the run) in the same transaction. Returns how many.
     */
    public int reapOrphans() {
        PGobject json = new PGobject();
        try {
            json.setType("jsonb");
            // a whole result envelope, as every other finished run has; the row's op_id is merged in below
            Map<String, Object> envelope = new LinkedHashMap<>();
            envelope.put("status", ResultEnvelope.ERROR);
            envelope.put("result", null);
            envelope.put("error", "the run was orphaned (its kernel stopped); it was not re-dispatched");
            envelope.put("duration_ms", 0);
            envelope.put("extras", Map.of("error_code", "run_orphaned"));
            json.setValue(JsonMapping.write(envelope));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return store.inTransaction(c -> {
            List<DispatchRunStore.Orphan> reaped = DispatchRunStore.failLapsed(c, json);
            for (DispatchRunStore.Orphan r : reaped) {
                audit.recordIn(c, AuditLog.Entry.byService(r.tenantId(), "svc-reaper", AuditClass.OTHER, "svc.runs.orphaned")
                        .connector(Optional.ofNullable(r.connectorId())).target(Optional.ofNullable(r.target()))
                        .workRef(Optional.ofNullable(r.workRef())), "error", Optional.of("run_orphaned"), Optional.empty(),
                        Map.of("run_handle", r.id().toString(),
                        "run_principal", String.valueOf(r.principal()), "op_id", String.valueOf(r.opId()),
                        "error_code", "run_orphaned"));
            }
            return reaped.size();
        });
    }

    /** Failing asynchronous calls whose lease lapsed (their kernel died), every {@code every}. */
    public List<PeriodicJob> periodicJobs(Duration every) {
        return List.of(new PeriodicJob("async-run-reaper", every, this::reapOrphans));
    }
}
