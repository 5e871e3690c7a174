package dev.backplane.kernel.dispatch;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.lang.System.Logger.Level;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
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

    private final Jdbc jdbc;
    private final Duration lease;

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
        this.lease = lease;
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
                Timestamp.from(Instant.now().plus(lease)));
        Thread.ofVirtual().name("async-run-" + id).start(() -> {
            ResultEnvelope env;
            Thread heartbeat = Thread.ofVirtual().name("async-run-lease-" + id).start(() -> renew(id));
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
                heartbeat.interrupt();
            }
            finish(id, env);
        });
        return show(tenant, principal, id);
    }

    /** Extends the run's lease every third of it until interrupted (the run finished) or the run is not running. */
    private void renew(UUID id) {
        long every = Math.max(100, lease.toMillis() / 3);
        while (true) {
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
            try {
                if (jdbc.update("UPDATE dispatch_runs SET lease_until = ? WHERE id = ? AND status = 'running'",
                        Timestamp.from(Instant.now().plus(lease)), id) == 0) {
                    return;
                }
            } catch (Jdbc.DataAccessException e) {
                LOG.log(Level.WARNING, "async run " + id + ": lease not renewed (" + e.getMessage() + "); retrying");
            }
        }
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
            json.setValue(JsonMapping.write(Map.of("status", "error", "error", "the run was orphaned (its kernel stopped); it "
                    + "was not re-dispatched", "extras", Map.of("error_code", "run_orphaned"))));
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        dev.backplane.kernel.audit.AuditLog audit = new dev.backplane.kernel.audit.AuditLog(jdbc);
        return jdbc.inTransaction(c -> {
            var reaped = Jdbc.query(c, "UPDATE dispatch_runs SET status = 'failed', result = ?, finished_at = now() "
                    + "WHERE status IN ('pending', 'running') AND lease_until < now() "
                    + "RETURNING id, tenant_id, principal, connector_id, op_id, target, work_ref", rs -> new Object[] {
                            rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7)}, json);
            for (Object[] r : reaped) {
                audit.recordIn(c, new dev.backplane.kernel.audit.AuditLog.Entry((UUID) r[1], "svc-reaper", "service",
                        "other", "svc.runs.orphaned", Optional.ofNullable((String) r[3]), Optional.ofNullable((String) r[5]),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.ofNullable((String) r[6]),
                        Optional.empty()), "error", Optional.of("run_orphaned"), Optional.empty(),
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
}
