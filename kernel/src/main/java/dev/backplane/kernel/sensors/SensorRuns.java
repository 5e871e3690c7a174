package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.kagkarlsson.scheduler.task.schedule.CronSchedule;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.dispatch.CallRequest;
import dev.backplane.kernel.dispatch.Dispatcher;
import dev.backplane.kernel.dispatch.ResultEnvelope;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Runs due sensors (called by a db-scheduler job, so one replica at a time claims): the sensors due
 * within {@link #LOOKAHEAD} are claimed with {@code FOR UPDATE SKIP LOCKED} and their next run time set
 * in the claiming transaction — so a due time runs once, whichever replica claims it — then each runs
 * on a virtual thread from its due time (at most {@code maxConcurrent} at once) through the dispatch
 * pipeline as the sensor's service principal, and its result row and latest state are written in one
 * transaction. A sensor late by several periods runs
 * once. Results older than the retention are swept.
 */
public final class SensorRuns implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SensorRuns.class.getName());
    private static final int BATCH = 200;
    private static final int MAX_BATCHES = 50;
    private static final int MAX_DETAIL_CHARS = 500;
    /**
     * How far ahead of its due time a sensor is claimed: the job runs about every second or two, so a
     * run claimed early waits on its virtual thread until it is due instead of starting up to two seconds late.
     */
    static final Duration LOOKAHEAD = Duration.ofSeconds(2);
    /**
     * How long past its due time a claimed run holds its sensor (running_until): the sensor is not claimed
     * again until the run records or this lease runs out (a replica that died mid-run).
     */
    static final Duration RUN_LEASE = Duration.ofMinutes(10);

    private final Jdbc jdbc;
    private final Dispatcher dispatcher;
    private final CatalogService catalog;
    private final int retentionDays;
    private final Semaphore slots;
    private final ExecutorService runner = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("sensor-run-", 0).factory());
    private final List<SensorStateListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param retentionDays results older than this many days are swept
     * @param maxConcurrent sensor calls one kernel runs at once
     */
    public SensorRuns(Jdbc jdbc, Dispatcher dispatcher, CatalogService catalog, int retentionDays, int maxConcurrent) {
        this.jdbc = jdbc;
        this.dispatcher = dispatcher;
        this.catalog = catalog;
        this.retentionDays = retentionDays;
        this.slots = new Semaphore(maxConcurrent);
    }

    /** Adds a listener told about each committed state change. */
    public void onStateChange(SensorStateListener listener) {
        listeners.add(listener);
    }

    /** A claimed run (package-private for tests). */
    record Due(UUID id, UUID tenant, String connectorId, String opId, String target, String params,
                       String assertion, String principal, Integer interval, String cron, String zone, Instant at) {
    }

    /** Claims what is due now and starts its runs; returns how many it started. */
    public int runDue() {
        int started = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            List<Due> due = jdbc.inTransaction(c -> {
                List<Due> claimed = Jdbc.query(c, """
                        SELECT id, tenant_id, connector_id, op_id, target, params, assertion, principal, interval_seconds,
                               cron, time_zone, next_run_at
                          FROM sensors WHERE status = 'active' AND next_run_at <= now() + make_interval(secs => ?)
                           AND (running_until IS NULL OR running_until < now())
                         ORDER BY next_run_at LIMIT ? FOR UPDATE SKIP LOCKED""", rs -> {
                    Integer interval = rs.getObject(9, Integer.class); // null for a cron sensor
                    return new Due(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3),
                            rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8),
                            interval, rs.getString(10), rs.getString(11), rs.getTimestamp(12).toInstant());
                }, (double) LOOKAHEAD.toSeconds(), BATCH);
                for (Due d : claimed) {
                    advance(c, d);
                }
                return claimed;
            });
            for (Due d : due) {
                runner.submit(() -> runGuarded(d));
            }
            started += due.size();
            if (due.size() < BATCH) {
                break;
            }
        }
        return started;
    }

    /**
     * Sets the next run: the next period after the due time, or after now when it is late by more than
     * one (a run claimed ahead of its due time counts from its due time).
     */
    private static void advance(Connection c, Due d) throws SQLException {
        Instant now = d.at().isAfter(Instant.now()) ? d.at() : Instant.now();
        Instant next;
        try {
            if (d.interval() != null) {
                next = d.at().plusSeconds(d.interval());
                if (!next.isAfter(now)) {
                    next = now.plusSeconds(d.interval());
                }
            } else {
                CronSchedule schedule = Sensors.schedule(d.cron(), d.zone());
                next = Sensors.next(schedule, now);
            }
        } catch (DomainException e) {
            LOG.log(Level.ERROR, "sensor " + d.id() + " (tenant " + d.tenant() + ") has a cadence that no longer "
                    + "computes and is paused: " + e.getMessage());
            Jdbc.update(c, "UPDATE sensors SET status = 'paused', updated_at = now() WHERE id = ?", d.id());
            return;
        }
        Jdbc.update(c, "UPDATE sensors SET next_run_at = ?, running_until = ? WHERE id = ?", Timestamp.from(next),
                Timestamp.from(d.at().plus(RUN_LEASE)), d.id());
    }

    private void runGuarded(Due d) {
        try {
            long early = Duration.between(Instant.now(), d.at()).toMillis();
            if (early > 0) {
                Thread.sleep(early);
            }
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            release(d);
            return;
        }
        try {
            // checked after the slot, every time: a run that waited for its due time or for a slot does not
            // call for a sensor paused or deleted meanwhile
            if (!stillActive(d.id())) {
                release(d);
                return;
            }
            run(d);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "sensor " + d.id() + " (tenant " + d.tenant() + ") run failed", e);
            release(d);
        } finally {
            slots.release();
        }
    }

    /** Clears the in-flight marker of a claimed run that ends without recording. */
    private void release(Due d) {
        try {
            jdbc.update("UPDATE sensors SET running_until = NULL WHERE id = ?", d.id());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "sensor " + d.id() + "'s in-flight marker stays until its lease ends", e);
        }
    }

    private boolean stillActive(UUID id) {
        return jdbc.queryOne("SELECT status FROM sensors WHERE id = ?", rs -> rs.getString(1), id)
                .filter("active"::equals).isPresent();
    }

    /** One run: the call as the sensor's service principal, the verdict, the result row. */
    void run(Due d) {
        Caller principal = new Caller(d.principal(), Optional.empty(), Optional.of(d.tenant()), d.tenant(), Role.OPERATOR,
                false, PrincipalKind.SERVICE, Optional.empty());
        long t0 = System.nanoTime();
        String state;
        String detail;
        String callStatus;
        Optional<UUID> auditId = Optional.empty();
        try {
            Optional<String> refused = refusal(d);
            if (refused.isPresent()) {
                record(d, "unknown", refused.get(), ResultEnvelope.DENIED, Optional.empty(),
                        (int) ((System.nanoTime() - t0) / 1_000_000));
                return;
            }
            Map<String, Object> params = JsonMapping.mapper().readValue(d.params(),
                    new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() { });
            ResultEnvelope env = dispatcher.call(principal, new CallRequest(d.connectorId(), d.opId(), d.target(), params,
                    Optional.empty(), Optional.empty(), Optional.empty()));
            callStatus = env.status();
            auditId = Optional.ofNullable(env.extras().get("audit_id")).map(Object::toString).map(UUID::fromString);
            Assertion assertion = Assertion.parse(JsonMapping.mapper().readTree(d.assertion()));
            String code = Optional.ofNullable(env.extras().get("error_code")).map(Object::toString).orElse(env.status());
            switch (env.status()) {
                case ResultEnvelope.OK -> {
                    JsonNode result = JsonMapping.mapper().valueToTree(env.result());
                    Assertion.Verdict v = assertion.evaluate(result);
                    state = v.state();
                    detail = v.detail();
                }
                case ResultEnvelope.ERROR -> {
                    state = assertion.onError();
                    detail = "the call failed (" + code + "): " + Optional.ofNullable(env.error()).orElse("");
                }
                default -> {
                    state = "unknown";
                    detail = "the call was not run (" + code + "): " + Optional.ofNullable(env.error()).orElse("");
                }
            }
        } catch (DomainException e) {
            callStatus = ResultEnvelope.ERROR;
            state = "unknown";
            detail = "the call could not start (" + e.code() + "): " + e.getMessage();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            callStatus = ResultEnvelope.ERROR;
            state = "unknown";
            detail = "the sensor's stored params or assertion do not parse";
        } catch (RuntimeException e) {
            // a plugin bug, a database blip, an evaluation that threw: the run still records (state unknown),
            // so the sensor never keeps showing its old state; the stack goes to the log, never to the detail
            LOG.log(Level.ERROR, "sensor " + d.id() + " (tenant " + d.tenant() + ") run failed", e);
            callStatus = ResultEnvelope.ERROR;
            state = "unknown";
            detail = "internal error while running the sensor";
        }
        record(d, state, truncate(detail), callStatus, auditId, (int) ((System.nanoTime() - t0) / 1_000_000));
    }

    /**
     * Why this run must not call, checked against the operation as it is now (a re-ingest or catalog
     * change may have made it a write, or made it require approval, since the sensor was created).
     */
    private Optional<String> refusal(Due d) {
        if (catalog == null) {
            return Optional.empty();
        }
        CatalogService.EffectiveOperation op = catalog.effective(d.tenant(), d.connectorId(), d.opId());
        if (!op.descriptor().isReadClass()) {
            return Optional.of("operation is no longer a read; the sensor did not call it");
        }
        if (op.view().requiresApproval()) {
            return Optional.of("operation now requires approval; a sensor never waits for one and did not call it");
        }
        return Optional.empty();
    }

    private void record(Due d, String state, String detail, String callStatus, Optional<UUID> auditId, int durationMs) {
        Optional<String> previous = jdbc.inTransaction(c -> {
            List<String> before = Jdbc.query(c, "SELECT coalesce(last_state, 'unknown') FROM sensors WHERE id = ? "
                    + "FOR UPDATE", rs -> rs.getString(1), d.id());
            if (before.isEmpty()) {
                return Optional.<String>empty(); // deleted while it ran
            }
            Jdbc.update(c, """
                    INSERT INTO sensor_results (sensor_id, tenant_id, due_at, evaluated_at, state, detail, call_status,
                                                audit_id, duration_ms)
                    VALUES (?, ?, ?, now(), ?, ?, ?, ?, ?)""", d.id(), d.tenant(), Timestamp.from(d.at()), state, detail,
                    callStatus,
                    auditId.orElse(null), durationMs);
            // the latest state is the latest due time's: a run that finished after a later one does not overwrite it
            int latest = Jdbc.update(c, """
                    UPDATE sensors SET last_state = ?, last_evaluated_at = now(), last_due_at = ?
                     WHERE id = ? AND (last_due_at IS NULL OR last_due_at <= ?)""", state, Timestamp.from(d.at()), d.id(),
                    Timestamp.from(d.at()));
            Jdbc.update(c, "UPDATE sensors SET running_until = NULL WHERE id = ?", d.id());
            return latest == 0 ? Optional.of(state) : Optional.of(before.getFirst());
        });
        if (previous.isPresent() && !previous.get().equals(state)) {
            for (SensorStateListener l : listeners) {
                try {
                    l.changed(d.tenant(), d.id(), previous.get(), state);
                } catch (RuntimeException e) {
                    LOG.log(Level.ERROR, "a listener of sensor " + d.id() + "'s state change failed", e);
                }
            }
        }
    }

    private static String truncate(String s) {
        return s.length() <= MAX_DETAIL_CHARS ? s : s.substring(0, MAX_DETAIL_CHARS) + "...";
    }

    /** Deletes results older than the retention; returns how many. */
    public int sweep() {
        return jdbc.update("DELETE FROM sensor_results WHERE evaluated_at < now() - make_interval(days => ?)", retentionDays);
    }

    @Override
    public void close() {
        // sensor runs in flight finish (each is one bounded dispatch, audited); new ones are not started
        runner.shutdown();
        try {
            if (!runner.awaitTermination(10, TimeUnit.SECONDS)) {
                runner.shutdownNow();
                runner.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            runner.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
