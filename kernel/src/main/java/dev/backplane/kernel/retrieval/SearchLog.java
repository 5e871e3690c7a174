package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.http.RequestTelemetry.Buckets;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.Digests;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Records the searches operators and agents make on the retrieval surfaces (REST and MCP), for
 * {@code svc retrieval usage} and the retire checklist: who, which surface, how many hits, how long.
 * The query text is not kept — only its SHA-256 and length, as for docs queries: a search box gets
 * pasted secrets. One insert per search; a failed insert is logged and never fails the search.
 */
public final class SearchLog {

    private static final System.Logger LOG = System.getLogger(SearchLog.class.getName());

    /** The retrieval surfaces. */
    public enum Surface {
        KB, MEMORY, OPERATIONS, CONVENTIONS;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How the search came in. */
    public enum Transport {
        REST, MCP, AGENT;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Recorded searches older than this are deleted (usage and the retire checklist look back 30 days). */
    public static final int RETENTION_DAYS = 400;

    private final SearchLogStore store;
    private volatile MeterRegistry metrics = new CompositeMeterRegistry();

    public SearchLog(Jdbc jdbc) {
        this.store = new SearchLogStore(jdbc);
    }

    /** Times every recorded search into {@code svc_retrieval_search_seconds} (labels surface and transport). */
    public void meterInto(MeterRegistry registry) {
        this.metrics = registry;
    }

    /** Runs {@code search} and records it (a search that throws is not recorded). */
    public <R> R record(Caller caller, Surface surface, Transport transport, String query, Supplier<R> search,
                        ToIntFunction<R> hits) {
        long t0 = System.nanoTime();
        R result = search.get();
        long nanos = System.nanoTime() - t0;
        int latencyMs = (int) Math.min(Integer.MAX_VALUE, nanos / 1_000_000L);
        Timer.builder("svc.retrieval.search").description("searches by surface and transport")
                .tag("surface", surface.wireName()).tag("transport", transport.wireName())
                .serviceLevelObjectives(Buckets.LATENCY).register(metrics)
                .record(nanos, TimeUnit.NANOSECONDS);
        try {
            store.insert(new SearchLogStore.Search(caller.tenantId(), surface.wireName(), caller.sub(),
                    caller.kind().wireName(), transport.wireName(), Digests.sha256Hex(query == null ? "" : query),
                    query == null ? 0 : query.length(), hits.applyAsInt(result), latencyMs));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not record a " + surface.wireName() + " search: " + e.getMessage());
        }
        return result;
    }

    /** Deleting recorded searches older than {@link #RETENTION_DAYS}, every six hours. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("retrieval-searches-sweep", Duration.ofHours(6), () -> sweep(RETENTION_DAYS)));
    }

    /** Deletes search records older than {@code days}; run periodically. */
    public int sweep(int days) {
        return store.deleteOlderThan(days);
    }
}
