package dev.backplane.kernel.audit;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.postgresql.util.PGobject;

/**
 * The audit log: exactly one row per dispatch. {@link #begin} writes the row as {@code started}
 * before the target is called and throws if it cannot — the dispatcher then never calls the
 * target (fail-closed); {@link #finish} completes it. Rows hold a hash of the params, never their
 * values, and never a secret. Every row's extras, whichever method writes it, are bounded
 * ({@link AuditExtras}): a caller cannot write an unbounded row.
 */
public final class AuditLog {

    /**
     * What is being dispatched.
     *
     * @param tenantId the tenant acted on
     * @param principal the JWT subject
     * @param principalKind human, user-agent, agent or service
     * @param opClass read, write, credential_read, other
     * @param opId the operation
     * @param connectorId the connector
     * @param target the target's name
     * @param targetId the target's id
     * @param sessionId the agent session, if any
     * @param parentAuditId the composite parent, if any
     * @param workRef the external change ticket, if any
     * @param paramsHash sha256 of the canonical params
     */
    public record Entry(UUID tenantId, String principal, String principalKind, String opClass, String opId,
                        Optional<String> connectorId, Optional<String> target, Optional<UUID> targetId,
                        Optional<UUID> sessionId, Optional<UUID> parentAuditId, Optional<String> workRef,
                        Optional<String> paramsHash) {

        /** A row for what {@code caller} does (its tenant, subject, kind and agent session); add the rest with the withers. */
        public static Entry by(Caller caller, AuditClass opClass, String opId) {
            return new Entry(caller.tenantId(), caller.sub(), caller.kind().wireName(), opClass.wireName(), opId,
                    Optional.empty(), Optional.empty(), Optional.empty(), caller.sessionId(), Optional.empty(),
                    Optional.empty(), Optional.empty());
        }

        /** A row for what a principal that is not a request's caller does (an agent run, a service of the kernel). */
        public static Entry of(UUID tenantId, String principal, PrincipalKind kind, AuditClass opClass, String opId) {
            return new Entry(tenantId, principal, kind.wireName(), opClass.wireName(), opId, Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty());
        }

        /** A row for the kernel's own work in {@code tenantId} ({@code svc-reaper}, {@code svc-ingest:<slug>}, ...). */
        public static Entry byService(UUID tenantId, String principal, AuditClass opClass, String opId) {
            return of(tenantId, principal, PrincipalKind.SERVICE, opClass, opId);
        }

        /** A composite's step: this row's principal, target and session, under {@code parentId}, without a params hash. */
        public Entry childStep(UUID parentId, AuditClass stepClass, String stepOpId) {
            return new Entry(tenantId, principal, principalKind, stepClass.wireName(), stepOpId, connectorId, target,
                    targetId, sessionId, Optional.of(parentId), workRef, Optional.empty());
        }

        public Entry connector(String id) {
            return new Entry(tenantId, principal, principalKind, opClass, opId, Optional.of(id), target, targetId,
                    sessionId, parentAuditId, workRef, paramsHash);
        }

        public Entry connector(Optional<String> id) {
            return new Entry(tenantId, principal, principalKind, opClass, opId, id, target, targetId, sessionId,
                    parentAuditId, workRef, paramsHash);
        }

        /** The target by name (a target's name, an agent's, an event source's slug: what the row is about). */
        public Entry target(String name) {
            return target(Optional.of(name));
        }

        public Entry target(Optional<String> name) {
            return new Entry(tenantId, principal, principalKind, opClass, opId, connectorId, name, targetId,
                    sessionId, parentAuditId, workRef, paramsHash);
        }

        /** A registered target, by name and id. */
        public Entry target(String name, UUID id) {
            return new Entry(tenantId, principal, principalKind, opClass, opId, connectorId, Optional.of(name),
                    Optional.of(id), sessionId, parentAuditId, workRef, paramsHash);
        }

        /** The agent session (run) the row belongs to. */
        public Entry session(UUID id) {
            return new Entry(tenantId, principal, principalKind, opClass, opId, connectorId, target, targetId,
                    Optional.of(id), parentAuditId, workRef, paramsHash);
        }

        public Entry workRef(Optional<String> ref) {
            return new Entry(tenantId, principal, principalKind, opClass, opId, connectorId, target, targetId,
                    sessionId, parentAuditId, ref, paramsHash);
        }

        /** The sha256 of the canonical params (never the params). */
        public Entry paramsHash(String sha256Hex) {
            return new Entry(tenantId, principal, principalKind, opClass, opId, connectorId, target, targetId,
                    sessionId, parentAuditId, workRef, Optional.of(sha256Hex));
        }
    }

    private static final System.Logger LOG = System.getLogger(AuditLog.class.getName());
    private final AuditStore store;
    private final io.micrometer.core.instrument.Counter writeFailures;
    private final io.micrometer.core.instrument.Counter finishFailures;

    public AuditLog(Jdbc jdbc) {
        this(jdbc, new io.micrometer.core.instrument.composite.CompositeMeterRegistry());
    }

    /** @param metrics where {@code svc_audit_write_failures_total} (label stage: begin or finish) is counted */
    public AuditLog(Jdbc jdbc, io.micrometer.core.instrument.MeterRegistry metrics) {
        this.store = new AuditStore(jdbc);
        this.writeFailures = metrics.counter("svc.audit.write.failures", "stage", "begin");
        this.finishFailures = metrics.counter("svc.audit.write.failures", "stage", "finish");
    }

    /** Writes the row as started; throws when it cannot be written. */
    public UUID begin(Entry e) {
        return begin(e, Map.of());
    }

    /** Like {@link #begin(Entry)}, with extra fields on the row (never secrets, never raw query text). */
    public UUID begin(Entry e, Map<String, Object> extras) {
        return insert(e, "started", Optional.empty(), Optional.empty(), Optional.empty(), extras);
    }

    /** Like {@link #begin(Entry)} for a call an approval released: the row names the approval from the start. */
    public UUID begin(Entry e, Optional<UUID> approvalId) {
        return begin(e, approvalId, Map.of());
    }

    /** Like {@link #begin(Entry, Optional)}, with extra fields on the row (never secrets). */
    public UUID begin(Entry e, Optional<UUID> approvalId, Map<String, Object> extras) {
        return insert(e, "started", Optional.empty(), Optional.empty(), approvalId, extras);
    }

    /**
     * Completes a started row. The call has already happened, so a failure here is logged loudly and
     * the row stays {@code started} — visible in the log as a dispatch whose outcome was not recorded.
     * A call stopped by an interrupt (run-cancel) still records its outcome: the interrupt is set aside for
     * the write (database I/O on an interrupted thread fails) and restored after it.
     *
     * <p>The outcome commits with {@code synchronous_commit} off for its own transaction: it is visible to
     * every reader at once, and PostgreSQL's WAL writer flushes it with its neighbours (group commit) within
     * a few hundred milliseconds instead of the caller waiting for a disk flush. Only a crash of the database
     * server (or its host) inside that window can lose it, which leaves the row {@code started}: exactly what a
     * kernel that dies between the call and its outcome leaves, reaped as {@code outcome_unknown}
     * ({@link #reapStarted}). The intent row ({@link #begin}) is never written this way: it is flushed before
     * the target is called, so no call reaches a target without a durable row (fail-closed).
     */
    public void finish(UUID id, String status, Optional<String> errorCode, long durationMs) {
        boolean interrupted = Thread.interrupted();
        try {
            store.finish(id, status, errorCode, durationMs);
        } catch (Jdbc.DataAccessException e) {
            finishFailures.increment();
            LOG.log(System.Logger.Level.ERROR, "audit row " + id + " could not be completed (" + status + "): "
                    + e.getMessage());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Rows still {@code started} after {@code olderThan} belong to a dispatch whose kernel died between
     * calling the target and recording the outcome: they become {@code error} with {@code outcome_unknown}
     * (the call may or may not have reached the target; nothing re-runs it). Returns how many.
     */
    public int reapStarted(java.time.Duration olderThan) {
        return store.reapStarted(olderThan);
    }

    /** A row for a dispatch that ended before reaching the target (denied, invalid params, parked). */
    public UUID record(Entry e, String status, Optional<String> errorCode, Optional<UUID> approvalId,
                       Map<String, Object> extras) {
        return insert(e, status, errorCode, Optional.of(0L), approvalId, extras);
    }

    private UUID insert(Entry e, String status, Optional<String> errorCode, Optional<Long> duration,
                        Optional<UUID> approvalId, Map<String, Object> extras) {
        UUID id = UUID.randomUUID();
        try {
            write(id, e, status, errorCode, duration, approvalId, extras);
        } catch (Jdbc.DataAccessException failure) {
            writeFailures.increment();
            LOG.log(System.Logger.Level.ERROR, "audit log unavailable; refusing the dispatch: " + failure.getMessage());
            throw AuditErrors.AUDIT_UNAVAILABLE.error("the audit log could not be "
                    + "written, so nothing was sent to the target (audit is fail-closed); try again later");
        }
        return id;
    }

    /**
     * A finished row written on {@code c}, inside the caller's transaction: it commits or rolls back
     * with the change it records (an approval's transition and its audit row are one commit).
     */
    public UUID recordIn(java.sql.Connection c, Entry e, String status, Optional<UUID> approvalId,
                         Map<String, Object> extras) throws java.sql.SQLException {
        return recordIn(c, e, status, Optional.empty(), approvalId, extras);
    }

    /** Like {@link #recordIn(java.sql.Connection, Entry, String, Optional, Map)}, with an error code. */
    public UUID recordIn(java.sql.Connection c, Entry e, String status, Optional<String> errorCode,
                         Optional<UUID> approvalId, Map<String, Object> extras) throws java.sql.SQLException {
        UUID id = UUID.randomUUID();
        AuditStore.insertIn(c, id, e, status, errorCode, approvalId, extras(extras));
        return id;
    }

    /**
     * A finished row as one part of a writer's own statement: {@code INSERT ... SELECT ... FROM <from>},
     * so the row is written exactly when {@code from} (a data-modifying CTE of the writer) yields its
     * row, in the same statement and so the same commit. The event log uses it to make an accepted event
     * and its audit row one round trip to the database.
     *
     * @param sql the statement part, to be used as a CTE body
     * @param params its parameters, in order
     */
    public record Insert(String sql, List<Object> params) {
    }

    public static Insert insertSelectFrom(String from, UUID id, Entry e, String status, Map<String, Object> extras) {
        return AuditStore.insertSelectFrom(from, id, e, status, extras(extras));
    }

    /** The row's extras as bound: within {@link AuditExtras#MAX_BYTES}, whoever wrote them. */
    private static PGobject extras(Map<String, Object> extras) {
        PGobject json = new PGobject();
        try {
            json.setType("jsonb");
            json.setValue(AuditExtras.json(extras));
        } catch (java.sql.SQLException bad) {
            throw new Jdbc.DataAccessException(bad);
        }
        return json;
    }

    private void write(UUID id, Entry e, String status, Optional<String> errorCode, Optional<Long> duration,
                       Optional<UUID> approvalId, Map<String, Object> extras) {
        store.insert(id, e, status, errorCode, duration.map(Long::intValue), approvalId, extras(extras));
    }

    /**
     * Closes rows left {@code started} longer than {@code startedAfter} (their kernel died mid-call), every
     * {@code every}.
     */
    public List<PeriodicJob> periodicJobs(java.time.Duration every, java.time.Duration startedAfter) {
        return List.of(new PeriodicJob("audit-started-reaper", every, () -> reapStarted(startedAfter)));
    }
}
