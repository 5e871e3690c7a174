package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.kagkarlsson.scheduler.task.schedule.CronSchedule;
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

    private final Jdbc jdbc;
    private final Dispatcher dispatcher;
    private final int retentionDays;
    private final Semaphore slots;
    private final ExecutorService runner = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("sensor-run-", 0).factory());
    private final List<SensorStateListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param retentionDays results older than this many days are swept
     * @param maxConcurrent sensor calls one kernel runs at once
     */
    public SensorRuns(Jdbc jdbc, Dispatcher dispatcher, int retentionDays, int maxConcurrent) {
        this.jdbc = jdbc;
        this.dispatcher = dispatcher;
        this.retentionDays = retentionDays;
        this.slots = new Semaphore(maxConcurrent);
    }

    /** Adds a listener told about each committed state change. */
    public void onStateChange(SensorStateListener listener) {
        listeners.add(listener);
    }

    private record Due(UUID id, UUID tenant, String connectorId, String opId, String target, String params,
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
        Jdbc.update(c, "UPDATE sensors SET next_run_at = ? WHERE id = ?", Timestamp.from(next), d.id());
    }

    private void runGuarded(Due d) {
        try {
            long early = Duration.between(Instant.now(), d.at()).toMillis();
            if (early > 0) {
                Thread.sleep(early);
                if (!stillActive(d.id())) {
                    return; // paused or deleted while it waited for its due time
                }
            }
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            run(d);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "sensor " + d.id() + " (tenant " + d.tenant() + ") run failed", e);
        } finally {
            slots.release();
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
        }
        record(d, state, truncate(detail), callStatus, auditId, (int) ((System.nanoTime() - t0) / 1_000_000));
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
            Jdbc.update(c, "UPDATE sensors SET last_state = ?, last_evaluated_at = now() WHERE id = ?", state, d.id());
            return Optional.of(before.getFirst());
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
        runner.shutdownNow();
        try {
            runner.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
