package dev.backplane.kernel.dispatch;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.Lease;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.JsonMapping;
import java.lang.System.Logger.Level;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.postgresql.util.PGobject;

/**
 * Asynchronous calls: the caller gets a handle at once (HTTP 202) while the call runs through the
 * same pipeline on a virtual thread; the finished envelope is persisted on the run row. Raw params
 * are not stored, only their hash. A run whose lease lapses unfinished (its kernel died) is failed
 * by the reaper and never re-dispatched, because a governed write may not be safe to repeat.
 */
public final class AsyncRuns {

    private static final System.Logger LOG = System.getLogger(AsyncRuns.class.getName());

    /** What the caller sees of a run. */
    public record Run(UUID handle, String status, String connectorId, String opId, String target,
                      Optional<String> workRef, Instant createdAt, Optional<Instant> finishedAt,
                      Optional<Map<String, Object>> result, String statusUrl) {
    }

    /** States a run leaves no more: run-cancel answers 409 for them. */
    static final java.util.Set<String> TERMINAL = java.util.Set.of("succeeded", "failed", "cancelled");

    private final Jdbc jdbc;
    private final Lease lease;
    /** The threads of the runs in flight on this kernel, so run-cancel can interrupt them. */
    private final Map<UUID, Thread> local = new java.util.concurrent.ConcurrentHashMap<>();

    /** Runs leased for the call timeout plus a minute (renewed while they run). */
    public AsyncRuns(Jdbc jdbc, Duration callTimeout) {
        this(callTimeout.plusSeconds(60), jdbc);
    }

    /**
     * @param lease how long a run stays claimed by this kernel without a heartbeat; renewed every third of
     *     it while the run is in flight, so only a run whose kernel died lapses, however long the call takes
     */
    private AsyncRuns(Duration lease, Jdbc jdbc) {
        this.jdbc = jdbc;
        this.lease = new Lease(lease);
    }

    /** Runs with exactly this lease (tests shorten it). */
    static AsyncRuns withLease(Jdbc jdbc, Duration lease) {
        return new AsyncRuns(lease, jdbc);
    }

    /** Records the run and starts {@code body} in the background; returns the handle at once. */
    public Run start(UUID tenant, String principal, CallRequest req, String paramsHash, Supplier<ResultEnvelope> body) {
        UUID id = UUID.randomUUID();
        jdbc.update("""
                INSERT INTO dispatch_runs (id, tenant_id, principal, connector_id, op_id, target, work_ref, params_hash,
                       status, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)""",
                id, tenant, principal, req.connectorId(), req.opId(), req.target(), req.workRef().orElse(null), paramsHash,
                lease.untilFromNow());
        Thread.ofVirtual().name("async-run-" + id).start(() -> {
            local.put(id, Thread.currentThread());
            ResultEnvelope env;
            Lease.Heartbeat heartbeat = lease.keepAlive("async-run-lease-" + id, until -> jdbc.update(
                    "UPDATE dispatch_runs SET lease_until = ? WHERE id = ? AND status = 'running'", until, id) > 0);
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
            finish(id, env);
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

    private void finish(UUID id, ResultEnvelope env) {
        String status = switch (env.status()) {
            case ResultEnvelope.OK -> "succeeded";
            case ResultEnvelope.AWAITING_APPROVAL -> "awaiting_approval";
            default -> "failed";
        };
        try {
            PGobject json = new PGobject();
            json.setType("jsonb");
            json.setValue(JsonMapping.write(env));
            jdbc.update("UPDATE dispatch_runs SET status = ?, result = ?, finished_at = now() WHERE id = ? "
                    + "AND status = 'running'", status, json, id);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The caller's own run; anyone else's is indistinguishable from a missing one. */
    public Run show(UUID tenant, String principal, UUID id) {
        return jdbc.queryOne("SELECT * FROM dispatch_runs WHERE id = ? AND tenant_id = ? AND principal = ?", rs -> {
            String result = rs.getString("result");
            Timestamp finished = rs.getTimestamp("finished_at");
            return new Run(rs.getObject("id", UUID.class), rs.getString("status"), rs.getString("connector_id"),
                    rs.getString("op_id"), rs.getString("target"), Optional.ofNullable(rs.getString("work_ref")),
                    rs.getTimestamp("created_at").toInstant(), Optional.ofNullable(finished).map(Timestamp::toInstant),
                    Optional.ofNullable(result).map(AsyncRuns::map), "/api/v1/operations/runs/" + rs.getObject("id"));
        }, id, tenant, principal).orElseThrow(() -> DispatchErrors.RUN_NOT_FOUND.error("no run " + id
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
    public Run cancel(dev.backplane.kernel.identity.Caller caller, UUID id) {
        AuditLog audit = new AuditLog(jdbc);
        jdbc.inTransaction(c -> {
            record Row(String status, String connectorId, String opId, String target, String workRef, String approval) {
            }
            Row row = Jdbc.query(c, """
                    SELECT status, connector_id, op_id, target, work_ref,
                           COALESCE(approval_request_id::text, result -> 'extras' ->> 'approval_request_id') FROM dispatch_runs
                     WHERE id = ? AND tenant_id = ? AND principal = ? FOR UPDATE""", rs -> new Row(rs.getString(1),
                    rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                    rs.getString(6)), id, caller.tenantId(), caller.sub()).stream().findFirst()
                    .orElseThrow(() -> DispatchErrors.RUN_NOT_FOUND.error("no run " + id + " of yours"));
            if (TERMINAL.contains(row.status())) {
                throw DispatchErrors.RUN_FINISHED.error("run " + id + " already " + row.status() + "; only a pending, "
                        + "running or awaiting_approval run can be cancelled", Map.of("status", row.status()));
            }
            Map<String, Object> extras = new LinkedHashMap<>();
            extras.put("error_code", "run_cancelled");
            extras.put("cancelled_by", caller.sub());
            extras.put("previous_status", row.status());
            if (row.approval() != null) {
                extras.put("approval_request_id", row.approval());
            }
            Map<String, Object> envelope = new LinkedHashMap<>();
            envelope.put("status", ResultEnvelope.ERROR);
            envelope.put("op_id", row.opId());
            envelope.put("result", null);
            envelope.put("error", "cancelled by run-cancel" + (row.approval() == null ? "" : "; approval request "
                    + row.approval() + " is still open (svc approvals reject " + row.approval() + ")"));
            envelope.put("duration_ms", 0);
            envelope.put("extras", extras);
            Jdbc.update(c, "UPDATE dispatch_runs SET status = 'cancelled', result = ?, finished_at = now() WHERE id = ?",
                    Jdbc.jsonb(envelope), id);
            audit.recordIn(c, new dev.backplane.kernel.audit.AuditLog.Entry(caller.tenantId(), caller.sub(),
                    caller.kind().wireName(), "other", "svc.runs.cancelled", Optional.of(row.connectorId()),
                    Optional.of(row.target()), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.ofNullable(row.workRef()), Optional.empty()), "ok", Optional.empty(), Optional.empty(),
                    Map.of("run_handle", id.toString(), "op_id", row.opId(), "previous_status", row.status()));
            return null;
        });
        Optional.ofNullable(local.get(id)).ifPresent(Thread::interrupt);
        return show(caller.tenantId(), caller.sub(), id);
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
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        dev.backplane.kernel.audit.AuditLog audit = new dev.backplane.kernel.audit.AuditLog(jdbc);
        return jdbc.inTransaction(c -> {
            var reaped = Jdbc.query(c, "UPDATE dispatch_runs SET status = 'failed', "
                    + "result = ? || jsonb_build_object('op_id', op_id), finished_at = now() "
                    + "WHERE status IN ('pending', 'running') AND lease_until < now() "
                    + "RETURNING id, tenant_id, principal, connector_id, op_id, target, work_ref", rs -> new Object[] {
                            rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7)}, json);
            for (Object[] r : reaped) {
                audit.recordIn(c, AuditLog.Entry.byService((UUID) r[1], "svc-reaper", AuditClass.OTHER, "svc.runs.orphaned")
                        .connector(Optional.ofNullable((String) r[3])).target(Optional.ofNullable((String) r[5]))
                        .workRef(Optional.ofNullable((String) r[6])), "error", Optional.of("run_orphaned"), Optional.empty(),
                        Map.of("run_handle", r[0].toString(),
                        "run_principal", String.valueOf(r[2]), "op_id", String.valueOf(r[4]), "error_code", "run_orphaned"));
            }
            return reaped.size();
        });
    }

    private static Map<String, Object> map(String json) {
        try {
            return JsonMapping.mapper().readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (Exception e) {
            return Map.of();
        }
    }

    /** Failing asynchronous calls whose lease lapsed (their kernel died), every {@code every}. */
    public List<PeriodicJob> periodicJobs(Duration every) {
        return List.of(new PeriodicJob("async-run-reaper", every, this::reapOrphans));
    }
}
