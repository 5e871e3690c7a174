package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.Paging;
import dev.backplane.plugin.api.OpClass;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The tenant activity feed (SPEC "Other event feeds"): producers {@link #publish} what happened, the
 * feed stores it in PostgreSQL ({@code broadcast_events}, kept {@code broadcast.retention-days}) and
 * announces each commit on the {@link ChangeFeed}, so a {@link BroadcastHub} on any replica streams it.
 *
 * <p>Publishing never slows the work it reports: activities go to a bounded in-memory queue that one
 * writer thread per kernel stores in batches (one transaction per batch). What the feed may lose is
 * only what was queued when the process was killed (milliseconds of activity) or what overflowed a
 * full queue (counted and logged) — the audit log, written synchronously by every dispatch, stays the
 * record of truth. Announcements are written synchronously: their author gets the stored event back.
 *
 * <p>Calls matched by an override with detail {@code aggregate} are not stored one by one: each is
 * counted into its window row ({@code broadcast_windows}, shared by all replicas), and
 * {@link #flushWindows} turns every closed window into one {@code aggregate} event.
 */
public final class BroadcastFeed implements AutoCloseable {

    public static final int RECENT_MAX = 1000;
    public static final int RECENT_DEFAULT = 100;
    private static final int QUEUE_CAPACITY = 50_000;

    private final BroadcastStore store;
    private final BroadcastQueryStore queries;
    private final BroadcastSummary summaries;
    private final WindowStore windows;
    private final BroadcastOverrides overrides;
    private final BroadcastSettings settings;
    private final BroadcastWriter writer;

    public BroadcastFeed(Jdbc jdbc, BroadcastOverrides overrides, BroadcastSettings settings) {
        this.store = new BroadcastStore(jdbc);
        this.queries = new BroadcastQueryStore(jdbc);
        this.summaries = new BroadcastSummary(queries);
        this.windows = new WindowStore(jdbc);
        this.overrides = overrides;
        this.settings = settings;
        this.writer = new BroadcastWriter(this::store, store::answers, QUEUE_CAPACITY);
    }

    public BroadcastOverrides overrides() {
        return overrides;
    }

    /** Hands an activity to the feed; never blocks and never throws. */
    public void publish(Activity activity) {
        writer.offer(activity);
    }

    /** Activity events dropped since start (queue full or stopping). */
    public long dropped() {
        return writer.dropped();
    }

    /** Stores one batch in one transaction: events inserted, aggregated calls counted into their windows; NOTIFY on commit. */
    private void store(List<Activity> batch) {
        store.inTransaction(c -> {
            write(c, batch);
            return null;
        });
    }

    private void write(Connection c, List<Activity> batch) throws SQLException {
        BroadcastStore.lockTenants(c, batch.stream().map(Activity::tenantId).toList());
        List<Activity> rows = new ArrayList<>(batch.size());
        List<WindowStore.WindowCount> counted = new ArrayList<>();
        for (Activity a : batch) {
            Optional<BroadcastOverrides.Override> rule = overrides.applicable(a);
            if (rule.isPresent() && rule.get().aggregate()) {
                counted.add(new WindowStore.WindowCount(a, rule.get().id(), rule.get().scopeOf(a)));
            } else {
                rows.add(a);
            }
        }
        WindowStore.countIntoWindows(c, counted, settings.aggregateWindow().toSeconds());
        BroadcastStore.insertEvents(c, rows);
    }

    /**
     * Turns every closed aggregation window into one {@code aggregate} event (a periodic job; any
     * replica, each window once: the rows are deleted in the same transaction). Returns how many.
     */
    public int flushWindows() {
        Duration window = settings.aggregateWindow();
        return windows.flushClosedWindows(closeAfterSeconds(window), (double) window.toSeconds());
    }

    /** How long after its start a window is closed: its length plus a grace (up to 30 s) for activities still queued. */
    static double closeAfterSeconds(Duration window) {
        return window.toSeconds() + Math.min(30, window.toSeconds());
    }

    /** Deletes events older than the retention (a periodic job). Returns how many. */
    public int sweep() {
        return store.deleteOlderThan(settings.retentionDays());
    }

    // ---- announcements

    /** A request to announce work ({@code svc broadcast announce}). */
    public record Announcement(String activity, String phase, String plannedOpClass, String runId, String scope,
                               String target, List<String> targets, Integer ttlMinutes, String workRef) {
    }

    /**
     * Stores an announcement at once and answers it. A claim is keyed by its author and its run id (or
     * work ref, or activity text): a later phase of the same claim closes the earlier ones, a
     * {@code completion} closes the claim itself, and an unfinished claim lapses after its TTL.
     */
    public BroadcastEvent announce(Caller caller, Announcement a) {
        Announcements.Claim claim = Announcements.check(caller.sub(), a);
        return store.announce(caller.tenantId(), caller.sub(), caller.kind().wireName(), claim);
    }

    // ---- reading

    /** A page of events, newest first; {@code nextCursor} (a stream id) reads the next, older page. */
    public record Page(List<BroadcastEvent> events, Optional<String> nextCursor) {
    }

    /**
     * Events of the tenant, newest first.
     *
     * @param cursor a stream id (events before it) or an ISO 8601 time (events before then)
     */
    public Page recent(UUID tenant, BroadcastFilter f, Optional<String> cursor, int limit) {
        Paging.checked(limit, 0, RECENT_MAX);
        f.opClass().ifPresent(BroadcastFeed::checkOpClass);
        List<BroadcastEvent> events = queries.recent(tenant, f, cursor.map(FeedCursor::parse), limit);
        return new Page(events, events.size() == limit ? Optional.of(Long.toString(events.getLast().id()))
                : Optional.empty());
    }

    /** Events of the tenant after stream id {@code after}, oldest first (a stream's resume). */
    List<BroadcastEvent> after(UUID tenant, BroadcastFilter f, long after, int limit) {
        return queries.after(tenant, f, after, limit);
    }

    /** Refuses an op class filter that names no op class ({@code invalid_filter}). */
    static void checkOpClass(String v) {
        if (OpClass.fromWireName(v).isEmpty()) {
            throw BroadcastErrors.INVALID_FILTER.error("op_class must be one of " + OpClass.wireNames() + ", got '" + v
                    + "'", Map.of("field", "op_class"));
        }
    }

    /**
     * What happened in the tenant since {@code since} ({@code svc status}): event counts per kind and
     * outcome, and how many announcement claims are open now.
     */
    public Map<String, Object> summary(UUID tenant, String sinceArg) {
        return summaries.since(tenant, sinceArg);
    }

    /** Stores what is queued, then stops the writer. */
    @Override
    public void close() {
        writer.close();
    }

    /** Closing aggregation windows that are due, and the retention sweep. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("broadcast-windows-flush", Duration.ofSeconds(5), this::flushWindows),
                new PeriodicJob("broadcast-retention-sweep", Duration.ofHours(1), this::sweep));
    }
}
