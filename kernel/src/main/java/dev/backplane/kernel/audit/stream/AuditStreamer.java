package dev.backplane.kernel.audit.stream;

import dev.backplane.kernel.audit.integrity.AuditRecord;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;

/**
 * Streams every chained audit row, in {@code chain_pos} order (so in order per tenant), to the configured SIEM
 * sinks, at least once, from a durable cursor per sink ({@link AuditStreamStore}): a restart, a replica that
 * dies mid-batch or a receiver that is down loses nothing, because the cursor moves only after the receiver has
 * a batch, and the next run (on any replica) starts from it. A row that may have been handed to the receiver
 * before goes out marked {@code redelivered}. Each sink is one periodic job (every second; the scheduler runs it
 * on one replica at a time); a failing sink is retried with a growing pause (up to {@link #MAX_BACKOFF}).
 */
public final class AuditStreamer {

    private static final System.Logger LOG = System.getLogger(AuditStreamer.class.getName());
    static final Duration RUN_BUDGET = Duration.ofSeconds(5);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    /**
     * What to stream where.
     *
     * @param syslogAddress host:port of the syslog receiver (empty: no syslog sink)
     * @param syslogCa PEM file of the CA its certificate is checked against (empty: the JDK's trust store)
     * @param syslogFormat json or cef
     * @param httpUrl the HTTP endpoint (empty: no HTTP sink)
     * @param httpToken its bearer token (a secret: never in toString, logs or errors)
     * @param batch rows per syslog connection or HTTP request
     * @param hostname the HOSTNAME of syslog messages
     * @param timeout connect, read and write timeout of one delivery
     */
    public record Settings(Optional<String> syslogAddress, Optional<Path> syslogCa, String syslogFormat,
                           Optional<URI> httpUrl, Optional<String> httpToken, int batch, String hostname,
                           Duration timeout) {

        @Override
        public String toString() {
            return "AuditStreamer.Settings[syslog " + syslogAddress.orElse("off") + ", http "
                    + httpUrl.map(u -> u.getScheme() + "://" + u.getHost()).orElse("off") + ", token "
                    + (httpToken.filter(t -> !t.isBlank()).isPresent() ? "set" : "none") + ", batch " + batch + "]";
        }
    }

    private final AuditStreamStore store;
    private final List<AuditSink> sinks;
    private final int batch;
    private final Map<String, Counter> failures = new ConcurrentHashMap<>();
    private final Map<String, Backoff> backoff = new ConcurrentHashMap<>();
    private final LagCache lagCache;

    private record Backoff(int failures, Instant until) {
    }

    /** @param outbound trust for an https HTTP endpoint (the deploy's outbound trust) */
    public AuditStreamer(Jdbc jdbc, Settings settings, SSLContext outbound, MeterRegistry metrics) {
        this(jdbc, sinks(settings, outbound), settings.batch(), metrics);
    }

    AuditStreamer(Jdbc jdbc, List<AuditSink> sinks, int batch, MeterRegistry metrics) {
        this.store = new AuditStreamStore(jdbc);
        this.sinks = List.copyOf(sinks);
        this.batch = batch;
        this.lagCache = new LagCache(store);
        for (AuditSink sink : this.sinks) {
            String name = sink.name();
            failures.put(name, metrics.counter("svc.audit.stream.failures", "sink", name));
            Gauge.builder("svc.audit.stream.lag.rows", () -> lagCache.get(name).map(l -> (Number) l.rows())
                    .orElse(Double.NaN)).tag("sink", name).description("chained audit rows the sink has not acknowledged")
                    .register(metrics);
            Gauge.builder("svc.audit.stream.lag.seconds", () -> lagCache.get(name).map(l -> (Number) l.seconds())
                    .orElse(Double.NaN)).tag("sink", name).baseUnit("seconds")
                    .description("how long the oldest unacknowledged row has waited (0: caught up)").register(metrics);
        }
    }

    private static List<AuditSink> sinks(Settings s, SSLContext outbound) {
        List<AuditSink> out = new ArrayList<>();
        s.syslogAddress().filter(a -> !a.isBlank()).ifPresent(a -> out.add(new SyslogSink(a.strip(), s.syslogCa(),
                StreamMessages.Format.parse(s.syslogFormat()), s.hostname(), s.timeout())));
        s.httpUrl().ifPresent(u -> out.add(new HttpSink(u, s.httpToken(), outbound, s.timeout())));
        return out;
    }

    /** One job per configured sink, every second (none when streaming is off). */
    public List<PeriodicJob> periodicJobs() {
        return sinks.stream().map(s -> new PeriodicJob("audit-stream-" + s.name(), Duration.ofSeconds(1),
                () -> run(s))).toList();
    }

    /** Per sink: position, head_position, lag_rows, lag_seconds (for {@code svc audit stats}). */
    public Map<String, Object> lag() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (AuditSink sink : sinks) {
            Lag lag = LagCache.compute(store, sink.name());
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("position", lag.position());
            one.put("head_position", lag.head());
            one.put("lag_rows", lag.rows());
            one.put("lag_seconds", lag.seconds());
            out.put(sink.name(), one);
        }
        return out;
    }

    /** Delivers what the sink has not acknowledged, batch by batch, for up to {@link #RUN_BUDGET}; returns how many. */
    int run(AuditSink sink) {
        Backoff pause = backoff.get(sink.name());
        if (pause != null && Instant.now().isBefore(pause.until())) {
            return 0;
        }
        Instant deadline = Instant.now().plus(RUN_BUDGET);
        int delivered = 0;
        long position = 0;
        try {
            while (true) {
                AuditStreamStore.Cursor cursor = store.cursor(sink.name());
                position = cursor.acknowledged();
                List<AuditRecord> rows = store.after(position, batch);
                if (rows.isEmpty()) {
                    break;
                }
                long last = rows.getLast().chainPos();
                // before the first byte leaves: a crash from here on leaves them marked for next time
                long sentBefore = store.sending(sink.name(), last);
                sink.deliver(rows, Math.max(cursor.acknowledged(), sentBefore));
                store.acknowledge(sink.name(), last);
                delivered += rows.size();
                if (rows.size() < batch || Instant.now().isAfter(deadline)) {
                    break;
                }
            }
            backoff.remove(sink.name());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            failures.get(sink.name()).increment();
            int n = pause == null ? 1 : pause.failures() + 1;
            Duration wait = Duration.ofSeconds(1L << Math.min(n - 1, 4));
            wait = wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
            backoff.put(sink.name(), new Backoff(n, Instant.now().plus(wait)));
            LOG.log(System.Logger.Level.WARNING, "audit stream: delivery to " + sink.describe() + " failed ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                    + "); failure " + n + " in a row, retrying from position " + position + " in " + wait.toSeconds()
                    + " s");
        }
        return delivered;
    }

    List<AuditSink> sinks() {
        return sinks;
    }
}
