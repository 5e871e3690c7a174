package dev.backplane.kernel.app;

import dev.backplane.kernel.persistence.Database;
import dev.backplane.kernel.persistence.Jdbc;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The kernel's one Prometheus registry, scraped at {@code /metrics}. Besides the meters each capability registers
 * (HTTP, dispatch, audit, retrieval, event ingest), it holds the JVM's, the connection pool's (HikariCP) and a few
 * gauges read from PostgreSQL: approvals pending, background jobs and agent runs by kind and state. Those are
 * shared by every replica, so they are read at most every {@link #DB_GAUGE_MAX_AGE} whatever the scrape rate.
 *
 * <p>The cardinality rule: a label value comes only from a closed or operator-bounded set (route templates, HTTP
 * status codes, shared connector ids, operation classes, outcomes, error codes, job kinds, run states) — never a
 * tenant id, principal, target, operation id, parameter or path. {@code /metrics} answers without a token, so a
 * {@code connector} label names only connectors every tenant shares (plugins, global ingests); a tenant's own
 * ingested connector, or an id no connector has, is {@value #TENANT_CONNECTOR}.
 */
final class KernelMetrics {

    private static final System.Logger LOG = System.getLogger(KernelMetrics.class.getName());
    static final Duration DB_GAUGE_MAX_AGE = Duration.ofSeconds(15);
    /**
     * The oldest pending delivery's due time: each subscriber's oldest from event_deliveries_pending (subscriber,
     * next_attempt_at), the subscribers found by skipping through the same index, so a backlog of any size costs a few
     * index probes per subscriber. A due time still ahead counts as no lag.
     */
    static final String OLDEST_PENDING_DELIVERY = """
            WITH RECURSIVE s AS (
                (SELECT subscriber FROM event_deliveries WHERE status = 'pending' ORDER BY subscriber LIMIT 1)
                UNION ALL
                SELECT (SELECT d.subscriber FROM event_deliveries d WHERE d.status = 'pending'
                          AND d.subscriber > s.subscriber ORDER BY d.subscriber LIMIT 1)
                  FROM s WHERE s.subscriber IS NOT NULL)
            SELECT min((SELECT min(d.next_attempt_at) FROM event_deliveries d
                         WHERE d.subscriber = s.subscriber AND d.status = 'pending')) FROM s""";
    private static final List<String> JOB_STATES = List.of("queued", "running");
    private static final List<String> RUN_STATES = List.of("pending", "running", "awaiting_approval");

    private KernelMetrics() {
    }

    /** The {@code connector} label of a connector that is not shared by every tenant. */
    static final String TENANT_CONNECTOR = "tenant";

    /**
     * @param sharedConnector whether a connector id is shared by every tenant (a plugin's or a global ingest): any
     *        other id in a {@code connector} label, of any meter, is replaced by {@value #TENANT_CONNECTOR}
     */
    static PrometheusMeterRegistry create(Database database, Jdbc jdbc, List<String> jobKinds, int brokenPlugins,
                                          java.util.function.Predicate<String> sharedConnector) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // before any meter is registered, so the filter applies to all of them
        registry.config().meterFilter(io.micrometer.core.instrument.config.MeterFilter.replaceTagValues("connector",
                id -> sharedConnector.test(id) ? id : TENANT_CONNECTOR));
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        database.meterInto(registry);
        Gauge.builder("svc.plugins.broken", () -> brokenPlugins)
                .description("plugins that failed to load at start (see the kernel log for why)").register(registry);
        DatabaseGauges gauges = new DatabaseGauges(jdbc);
        Gauge.builder("svc.approvals.pending", () -> gauges.read().approvalsPending())
                .description("approval requests waiting for a decision, all tenants").register(registry);
        for (String kind : jobKinds) {
            for (String state : JOB_STATES) {
                Gauge.builder("svc.background.jobs", () -> gauges.read().jobs().getOrDefault(kind + "/" + state, 0L))
                        .description("unfinished background jobs by kind and state").tag("kind", kind).tag("state", state)
                        .register(registry);
            }
        }
        Gauge.builder("svc.events.drain.lag", () -> gauges.read().drainLagSeconds()).baseUnit("seconds")
                .description("age of the oldest event delivery that is due and still pending (0: none), all tenants")
                .register(registry);
        Gauge.builder("svc.scheduler.lag", () -> gauges.read().schedulerLagSeconds()).baseUnit("seconds")
                .description("age of the oldest scheduled execution that is due and not yet picked (0: none)")
                .register(registry);
        for (String state : RUN_STATES) {
            Gauge.builder("svc.agent.runs", () -> gauges.read().runs().getOrDefault(state, 0L))
                    .description("live agent runs by state").tag("state", state).register(registry);
        }
        return registry;
    }

    /** Counts read from PostgreSQL, cached for {@link #DB_GAUGE_MAX_AGE}; a failed read keeps the last counts. */
    private static final class DatabaseGauges {
        record Counts(long approvalsPending, Map<String, Long> jobs, Map<String, Long> runs, double drainLagSeconds,
                      double schedulerLagSeconds, long readAt) {
        }

        private final Jdbc jdbc;
        private volatile Counts last = new Counts(0, Map.of(), Map.of(), 0, 0, Long.MIN_VALUE / 2);

        DatabaseGauges(Jdbc jdbc) {
            this.jdbc = jdbc;
        }

        synchronized Counts read() {
            long now = System.nanoTime();
            if (now - last.readAt() < DB_GAUGE_MAX_AGE.toNanos()) {
                return last;
            }
            try {
                long pending = jdbc.queryOne("SELECT count(*) FROM governance_approvals WHERE status = 'pending'",
                        rs -> rs.getLong(1)).orElse(0L);
                Map<String, Long> jobs = counts("SELECT kind || '/' || status, count(*) FROM background_jobs "
                        + "WHERE status IN ('queued', 'running') GROUP BY 1");
                Map<String, Long> runs = counts("SELECT status, count(*) FROM agent_runs "
                        + "WHERE status IN ('pending', 'running', 'awaiting_approval') GROUP BY 1");
                double drainLag = lag(OLDEST_PENDING_DELIVERY);
                double schedulerLag = lag("SELECT min(execution_time) FROM scheduled_tasks "
                        + "WHERE picked = false AND execution_time <= now()");
                last = new Counts(pending, jobs, runs, drainLag, schedulerLag, now);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "metrics: could not read the database gauges: " + e.getMessage());
                last = new Counts(last.approvalsPending(), last.jobs(), last.runs(), last.drainLagSeconds(),
                        last.schedulerLagSeconds(), now);
            }
            return last;
        }

        /** Seconds from the instant {@code sql} selects (due rows' oldest) to the database's now; 0 when none. */
        private double lag(String sql) {
            return jdbc.queryOne("SELECT coalesce(extract(epoch FROM now() - (" + sql + ")), 0)",
                    rs -> Math.max(0, rs.getDouble(1))).orElse(0.0);
        }

        private Map<String, Long> counts(String sql) {
            return Map.ofEntries(jdbc.query(sql, rs -> Map.entry(rs.getString(1), rs.getLong(2)))
                    .toArray(Map.Entry[]::new));
        }
    }
}
