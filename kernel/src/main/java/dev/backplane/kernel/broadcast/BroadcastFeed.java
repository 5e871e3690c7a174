package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Paging;
import dev.backplane.kernel.util.TimeArg;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

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

    static final String TOPIC = "broadcast";
    public static final int RECENT_MAX = 1000;
    public static final int RECENT_DEFAULT = 100;
    private static final Duration MAX_SUMMARY = Duration.ofDays(7);
    private static final System.Logger LOG = System.getLogger(BroadcastFeed.class.getName());
    private static final int QUEUE_CAPACITY = 50_000;
    private static final int MAX_BATCH = 500;
    private static final int MAX_PRINCIPALS_PER_WINDOW = 20;
    static final List<String> OP_CLASSES = List.of("read", "write", "credential_read", "other");

    private final Jdbc jdbc;
    private final BroadcastOverrides overrides;
    private final BroadcastSettings settings;
    private final BlockingQueue<Activity> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicLong dropped = new AtomicLong();
    private volatile long lastDropLog;
    private volatile boolean closed;
    private final Thread writer;

    public BroadcastFeed(Jdbc jdbc, BroadcastOverrides overrides, BroadcastSettings settings) {
        this.jdbc = jdbc;
        this.overrides = overrides;
        this.settings = settings;
        this.writer = Thread.ofPlatform().daemon().name("broadcast-writer").start(this::writeLoop);
    }

    public BroadcastOverrides overrides() {
        return overrides;
    }

    /** Hands an activity to the feed; never blocks and never throws. */
    public void publish(Activity activity) {
        if (closed || !queue.offer(activity)) {
            long n = dropped.incrementAndGet();
            long now = System.nanoTime();
            if (now - lastDropLog > TimeUnit.SECONDS.toNanos(10)) {
                lastDropLog = now;
                LOG.log(Level.WARNING, "broadcast feed: " + n + " activity events dropped so far (the writer's queue of "
                        + QUEUE_CAPACITY + " is full or the kernel is stopping); the audit log still has every call");
            }
        }
    }

    /** Activity events dropped since start (queue full or stopping). */
    public long dropped() {
        return dropped.get();
    }

    private void writeLoop() {
        List<Activity> batch = new ArrayList<>(MAX_BATCH);
        while (!closed || !queue.isEmpty()) {
            try {
                Activity first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                writeWithRetry(batch);
            } catch (InterruptedException e) {
                if (closed) {
                    queue.drainTo(batch);
                    if (!batch.isEmpty()) {
                        writeWithRetry(batch);
                    }
                    return;
                }
            } finally {
                batch.clear();
            }
        }
    }

    private void writeWithRetry(List<Activity> batch) {
        long backoff = 200;
        for (int attempt = 1; ; attempt++) {
            try {
                store(batch);
                return;
            } catch (RuntimeException e) {
                if (databaseAnswers()) {
                    // the database is fine, so a row is bad: store the others, drop only what fails alone
                    storeOneByOne(batch);
                    return;
                }
                if (attempt >= 6 || closed) {
                    dropped.addAndGet(batch.size());
                    LOG.log(Level.ERROR, "broadcast feed: " + batch.size() + " activity events not stored after "
                            + attempt + " attempts: " + e.getMessage());
                    return;
                }
                LOG.log(Level.WARNING, "broadcast feed: storing " + batch.size() + " events failed (" + e.getMessage()
                        + "); retrying in " + backoff + " ms");
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
                backoff = Math.min(5_000, backoff * 2);
            }
        }
    }

    private void store(List<Activity> batch) {
        jdbc.inTransaction(c -> {
            write(c, batch);
            return null;
        });
    }

    private void storeOneByOne(List<Activity> batch) {
        for (Activity a : batch) {
            try {
                store(List.of(a));
            } catch (RuntimeException e) {
                dropped.incrementAndGet();
                LOG.log(Level.ERROR, "broadcast feed: a " + a.kind().wireName() + " event could not be stored and was "
                        + "dropped: " + e.getMessage());
            }
        }
    }

    private boolean databaseAnswers() {
        try {
            return jdbc.queryOne("SELECT 1", rs -> 1).isPresent();
        } catch (RuntimeException down) {
            return false;
        }
    }

    /** Stores one batch on {@code c}: events inserted, aggregated calls counted into their windows; NOTIFY on commit. */
    private void write(Connection c, List<Activity> batch) throws SQLException {
        lockTenants(c, batch.stream().map(Activity::tenantId).toList());
        List<Activity> rows = new ArrayList<>(batch.size());
        try (PreparedStatement counted = c.prepareStatement(WINDOW_UPSERT)) {
            int windows = 0;
            for (Activity a : batch) {
                Optional<BroadcastOverrides.Override> rule = overrides.applicable(a);
                if (rule.isPresent() && rule.get().aggregate()) {
                    bindWindow(counted, a, rule.get());
                    counted.addBatch();
                    windows++;
                } else {
                    rows.add(a);
                }
            }
            if (windows > 0) {
                counted.executeBatch();
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        try (PreparedStatement insert = c.prepareStatement(INSERT, new String[] {"id"})) {
            for (Activity a : rows) {
                bindEvent(insert, a);
                insert.addBatch();
            }
            insert.executeBatch();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                while (keys.next()) {
                    min = Math.min(min, keys.getLong(1));
                    max = Math.max(max, keys.getLong(1));
                }
            }
        }
        if (min <= max) {
            ChangeFeed.notifyOnCommit(c, TOPIC, min + "-" + max);
        }
    }

    /**
     * Serializes the feed's writers per tenant (in one order, so they never deadlock): a tenant's stream
     * ids are then handed out and committed in the same order, so a reader that has seen id n has seen
     * every earlier id of its tenant — what Last-Event-ID resume and the hub's catch-up rely on.
     */
    static void lockTenants(Connection c, java.util.Collection<UUID> tenants) throws SQLException {
        for (UUID t : new java.util.TreeSet<>(tenants)) {
            Jdbc.query(c, "SELECT pg_advisory_xact_lock(hashtext(?))", rs -> 1, "broadcast/" + t);
        }
    }

    private static final String INSERT = """
            INSERT INTO broadcast_events (tenant_id, at, kind, activity, phase, op_class, connector_id, op_id, target,
                   namespace, principal, principal_kind, actor_sub, status, error_code, duration_ms, work_ref, run_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

    private static void bindEvent(PreparedStatement ps, Activity a) throws SQLException {
        ps.setObject(1, a.tenantId());
        ps.setTimestamp(2, Timestamp.from(a.at()));
        ps.setString(3, a.kind().wireName());
        ps.setString(4, clip(a.activity(), 500));
        ps.setString(5, a.phase().orElse(null));
        ps.setString(6, a.opClass().orElse(null));
        ps.setString(7, a.connectorId().orElse(null));
        ps.setString(8, a.opId().orElse(null));
        ps.setString(9, a.target().orElse(null));
        ps.setString(10, a.namespace().orElse(null));
        ps.setString(11, a.principal());
        ps.setString(12, a.principalKind().orElse(null));
        ps.setString(13, a.actorSub());
        ps.setString(14, a.status().orElse(null));
        ps.setString(15, a.errorCode().orElse(null));
        ps.setObject(16, a.durationMs().orElse(null));
        ps.setString(17, a.workRef().orElse(null));
        ps.setString(18, a.runId().orElse(null));
    }

    private static final String WINDOW_UPSERT = """
            INSERT INTO broadcast_windows AS w (tenant_id, override_id, connector_id, op_id, op_class, scope_value,
                   window_start, last_at, event_count, statuses, principals, targets)
            VALUES (?, ?, ?, ?, ?, ?, to_timestamp(floor(extract(epoch FROM ?::timestamptz) / ?) * ?), ?, 1,
                    jsonb_build_object(?::text, 1), ARRAY[?::text], ARRAY[?::text])
            ON CONFLICT (tenant_id, override_id, connector_id, op_id, scope_value, window_start) DO UPDATE SET
                   event_count = w.event_count + 1,
                   last_at = greatest(w.last_at, EXCLUDED.last_at),
                   statuses = w.statuses || (SELECT jsonb_object_agg(k, coalesce((w.statuses ->> k)::int, 0) + v::int)
                                             FROM jsonb_each_text(EXCLUDED.statuses) AS e (k, v)),
                   principals = CASE WHEN EXCLUDED.principals[1] = ANY (w.principals)
                                       OR cardinality(w.principals) >= %d THEN w.principals
                                     ELSE w.principals || EXCLUDED.principals END,
                   targets = CASE WHEN EXCLUDED.targets[1] = ANY (w.targets)
                                    OR cardinality(w.targets) >= %d THEN w.targets
                                  ELSE w.targets || EXCLUDED.targets END""".formatted(MAX_PRINCIPALS_PER_WINDOW,
            MAX_PRINCIPALS_PER_WINDOW);

    private void bindWindow(PreparedStatement ps, Activity a, BroadcastOverrides.Override rule) throws SQLException {
        long seconds = settings.aggregateWindow().toSeconds();
        ps.setObject(1, a.tenantId());
        ps.setObject(2, rule.id());
        ps.setString(3, a.connectorId().orElse(""));
        ps.setString(4, a.opId().orElse(""));
        ps.setString(5, a.opClass().orElse(null));
        ps.setString(6, rule.scopeOf(a));
        ps.setTimestamp(7, Timestamp.from(a.at()));
        ps.setLong(8, seconds);
        ps.setLong(9, seconds);
        ps.setTimestamp(10, Timestamp.from(a.at()));
        ps.setString(11, a.status().orElse("unknown"));
        ps.setString(12, a.principal());
        ps.setString(13, a.target().orElse(""));
    }

    /**
     * Turns every closed aggregation window into one {@code aggregate} event (a periodic job; any
     * replica, each window once: the rows are deleted in the same transaction). Returns how many.
     */
    public int flushWindows() {
        Duration window = settings.aggregateWindow();
        double closeAfter = window.toSeconds() + Math.min(30, window.toSeconds()); // grace for activities still queued
        return jdbc.inTransaction(c -> {
            lockTenants(c, Jdbc.query(c, "SELECT DISTINCT tenant_id FROM broadcast_windows WHERE window_start "
                    + "+ make_interval(secs => ?) <= now()", rs -> rs.getObject(1, UUID.class), closeAfter));
            List<Long> ids = Jdbc.query(c, """
                    WITH closed AS (
                        DELETE FROM broadcast_windows WHERE window_start + make_interval(secs => ?) <= now()
                        RETURNING *)
                    INSERT INTO broadcast_events (tenant_id, at, kind, activity, op_class, connector_id, op_id, target,
                           targets, namespace, principal, actor_sub, event_count, window_start, window_end, statuses,
                           principals)
                    SELECT w.tenant_id, w.last_at, 'aggregate',
                           w.event_count || ' × call ' || w.connector_id || '/' || w.op_id, w.op_class, w.connector_id,
                           w.op_id, CASE WHEN cardinality(array_remove(w.targets, '')) = 1 THEN w.targets[1] END,
                           array_remove(w.targets, ''), CASE WHEN o.scope_field = 'namespace' THEN w.scope_value END,
                           w.principals[1], w.principals[1], w.event_count, w.window_start,
                           w.window_start + make_interval(secs => ?), w.statuses, w.principals
                    FROM closed w LEFT JOIN broadcast_overrides o ON o.id = w.override_id
                    RETURNING id""", rs -> rs.getLong(1), closeAfter, (double) window.toSeconds());
            if (!ids.isEmpty()) {
                long min = ids.stream().mapToLong(Long::longValue).min().getAsLong();
                long max = ids.stream().mapToLong(Long::longValue).max().getAsLong();
                ChangeFeed.notifyOnCommit(c, TOPIC, min + "-" + max);
            }
            return ids.size();
        });
    }

    /** Deletes events older than the retention (a periodic job). Returns how many. */
    public int sweep() {
        return jdbc.update("DELETE FROM broadcast_events WHERE recorded_at < now() - make_interval(days => ?)",
                settings.retentionDays());
    }

    // ---- announcements

    /** A request to announce work ({@code svc broadcast announce}). */
    public record Announcement(String activity, String phase, String plannedOpClass, String runId, String scope,
                               String target, List<String> targets, Integer ttlMinutes, String workRef) {
    }

    static final int MAX_TARGETS = 50;

    /**
     * Stores an announcement at once and answers it. A claim is keyed by its author and its run id (or
     * work ref, or activity text): a later phase of the same claim closes the earlier ones, a
     * {@code completion} closes the claim itself, and an unfinished claim lapses after its TTL.
     */
    public BroadcastEvent announce(Caller caller, Announcement a) {
        String activity = required(a.activity(), "activity", 500);
        String phase = a.phase() == null ? "start" : a.phase();
        if (!List.of("start", "update", "completion").contains(phase)) {
            throw invalid("phase must be start, update or completion, got '" + phase + "'", "phase");
        }
        Optional<String> planned = Optional.ofNullable(a.plannedOpClass()).map(v -> v.toLowerCase(Locale.ROOT));
        if (planned.isPresent() && !OP_CLASSES.contains(planned.get())) {
            throw invalid("planned_op_class must be one of " + OP_CLASSES + ", got '" + a.plannedOpClass() + "'",
                    "planned_op_class");
        }
        int ttl = a.ttlMinutes() == null ? 60 : a.ttlMinutes();
        if (ttl < 1 || ttl > 1440) {
            throw invalid("ttl_minutes must be 1..1440, got " + ttl, "ttl_minutes");
        }
        Optional<String> runId = optional(a.runId(), "run_id", 128);
        Optional<String> workRef = optional(a.workRef(), "work_ref", 256);
        Optional<String> scope = optional(a.scope(), "scope", 500);
        Optional<String> target = optional(a.target(), "target", 253);
        List<String> targets = new ArrayList<>();
        target.ifPresent(targets::add);
        if (a.targets() != null) {
            for (String t : a.targets()) {
                optional(t, "targets", 253).filter(v -> !targets.contains(v)).ifPresent(targets::add);
            }
        }
        if (targets.size() > MAX_TARGETS) {
            throw invalid("an announcement names at most " + MAX_TARGETS + " targets", "targets");
        }
        String claimKey = caller.sub() + "\u001f" + runId.or(() -> workRef).orElse(activity);
        boolean completion = phase.equals("completion");
        return jdbc.inTransaction(c -> {
            lockTenants(c, List.of(caller.tenantId())); // also: two announcements of one claim never both stay open
            Jdbc.update(c, "UPDATE broadcast_events SET closed_at = now() WHERE tenant_id = ? AND claim_key = ? "
                    + "AND kind = 'announcement' AND closed_at IS NULL", caller.tenantId(), claimKey);
            BroadcastEvent e = Jdbc.query(c, """
                    INSERT INTO broadcast_events (tenant_id, at, kind, activity, phase, op_class, target, targets, principal,
                           principal_kind, actor_sub, work_ref, run_id, scope, claim_key, expires_at, closed_at)
                    VALUES (?, now(), 'announcement', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now() + make_interval(mins => ?),
                            CASE WHEN ? THEN now() END)
                    RETURNING\s""" + BroadcastEvent.COLUMNS, BroadcastEvent::read, caller.tenantId(), activity, phase,
                    planned.orElse(null), targets.size() == 1 ? targets.getFirst() : null,
                    c.createArrayOf("text", targets.toArray()), caller.sub(), caller.kind().wireName(), caller.sub(),
                    workRef.orElse(null), runId.orElse(null), scope.orElse(null), claimKey, ttl, completion).getFirst();
            ChangeFeed.notifyOnCommit(c, TOPIC, e.id() + "-" + e.id());
            return e;
        });
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
        FilteredSelect select = new FilteredSelect("SELECT " + BroadcastEvent.COLUMNS
                + " FROM broadcast_events WHERE tenant_id = ?", tenant);
        if (cursor.isPresent()) {
            String cur = cursor.get().trim();
            if (cur.matches("\\d{1,18}")) {
                select.append(" AND id < ?", Long.parseLong(cur));
            } else {
                Instant before;
                try {
                    before = TimeArg.parse(cur, "cursor");
                } catch (dev.backplane.kernel.errors.DomainException e) {
                    throw CommonErrors.INVALID_CURSOR.error("cursor must be a stream id (a next_cursor) or an ISO 8601 "
                            + "time, got '" + cur + "'", Map.of("field", "cursor"));
                }
                select.append(" AND at < ?", Timestamp.from(before));
            }
        }
        List<BroadcastEvent> events = filter(select, f).append(" ORDER BY id DESC LIMIT ?", limit)
                .query(jdbc, BroadcastEvent::read);
        return new Page(events, events.size() == limit ? Optional.of(Long.toString(events.getLast().id()))
                : Optional.empty());
    }

    /** Events of the tenant after stream id {@code after}, oldest first (a stream's resume). */
    List<BroadcastEvent> after(UUID tenant, BroadcastFilter f, long after, int limit) {
        FilteredSelect select = new FilteredSelect("SELECT " + BroadcastEvent.COLUMNS
                + " FROM broadcast_events WHERE tenant_id = ? AND id > ?", tenant, after);
        return filter(select, f).append(" ORDER BY id LIMIT ?", limit).query(jdbc, BroadcastEvent::read);
    }

    private static FilteredSelect filter(FilteredSelect select, BroadcastFilter f) {
        return select.and("op_class = ?", f.opClass())
                .and("(principal = ? OR ? = ANY (principals))", f.principal())
                .and("(target = ? OR ? = ANY (targets))", f.target())
                .and("work_ref = ?", f.workRef())
                .and("actor_sub = ?", f.actorSub())
                .andIf(f.activeOnly(), "kind = 'announcement' AND closed_at IS NULL AND expires_at > now()");
    }

    static void checkOpClass(String v) {
        if (!OP_CLASSES.contains(v)) {
            throw BroadcastErrors.INVALID_FILTER.error("op_class must be one of " + OP_CLASSES + ", got '" + v + "'",
                    Map.of("field", "op_class"));
        }
    }

    /**
     * What happened in the tenant since {@code since} ({@code svc status}): event counts per kind and
     * outcome, and how many announcement claims are open now.
     */
    public Map<String, Object> summary(UUID tenant, String sinceArg) {
        Instant since = TimeArg.parse(sinceArg, "since");
        if (since.isBefore(Instant.now().minus(MAX_SUMMARY))) {
            throw BroadcastErrors.INVALID_FILTER.error("since may reach back at most 7 days", Map.of("field", "since"));
        }
        Map<String, Map<String, Long>> byKind = new LinkedHashMap<>();
        long[] total = {0};
        jdbc.query("""
                SELECT kind, coalesce(status, phase, '-') AS outcome, sum(coalesce(event_count, 1)) AS n
                FROM broadcast_events WHERE tenant_id = ? AND at >= ? GROUP BY 1, 2 ORDER BY 1, 2""", rs -> {
                    long n = rs.getLong("n");
                    total[0] += n;
                    byKind.computeIfAbsent(rs.getString("kind"), k -> new LinkedHashMap<>()).put(rs.getString("outcome"), n);
                    return null;
                }, tenant, Timestamp.from(since));
        long active = jdbc.queryOne("""
                SELECT count(*) FROM broadcast_events WHERE tenant_id = ? AND kind = 'announcement'
                AND closed_at IS NULL AND expires_at > now()""", rs -> rs.getLong(1), tenant).orElse(0L);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("since", since.toString());
        out.put("total", total[0]);
        out.put("by_kind", byKind);
        out.put("active_claims", active);
        return out;
    }

    private static String required(String value, String field, int max) {
        if (value == null || value.isBlank()) {
            throw invalid(field + " is required", field);
        }
        return optional(value, field, max).orElseThrow();
    }

    private static Optional<String> optional(String value, String field, int max) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        if (value.length() > max || value.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw invalid(field + " must be 1.." + max + " characters without control characters", field);
        }
        return Optional.of(value);
    }

    private static dev.backplane.kernel.errors.DomainException invalid(String message, String field) {
        return BroadcastErrors.INVALID_ANNOUNCEMENT.error(message, Map.of("field", field));
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    /** Stores what is queued, then stops the writer. */
    @Override
    public void close() {
        closed = true;
        writer.interrupt();
        try {
            writer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
