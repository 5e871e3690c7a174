package dev.backplane.kernel.audit.integrity;

import dev.backplane.kernel.persistence.PeriodicJob;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Links committed audit rows into each tenant's hash chain, after the fact, so no writer ever waits for another:
 * rows below the {@linkplain ChainStore#bound bound} (everything that will commit normally has committed) are
 * taken in (occurred_at, id) order, each gets its tenant's next sequence number, its link
 * ({@link AuditChain#link}) and a global position for the SIEM stream, stored as a row of {@code audit_links} (the
 * audit row is never rewritten), and the heads and the watermark move, all in one transaction under an advisory
 * lock. A row that commits below the watermark later is never linked:
 * verify reports it as inserted. {@link #seal} signs each moved head with the seal key.
 */
public final class Chainer {

    private static final System.Logger LOG = System.getLogger(Chainer.class.getName());
    /** Rows linked per transaction. */
    static final int BATCH = 5000;
    /** Batches per run, so one run of the job stays short. */
    private static final int MAX_BATCHES = 40;
    /** How far behind now() the bound stays, for a statement that has started but not yet shows in pg_stat_activity. */
    private static final long SETTLE_MILLIS = 1000;

    private final ChainStore store;
    private final Optional<SealKey> key;
    private final AtomicLong lagMillis = new AtomicLong();

    public Chainer(ChainStore store, Optional<SealKey> key, MeterRegistry metrics) {
        this.store = store;
        this.key = key;
        metrics.gauge("svc.audit.chain.lag.seconds", lagMillis, l -> l.get() / 1000.0);
    }

    /** Links every row that can be linked now (up to {@code BATCH * MAX_BATCHES}); returns how many. */
    public int chainOnce() {
        int total = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            int n = store.inChainerTransaction(c -> {
                Instant bound = ChainStore.bound(c, SETTLE_MILLIS);
                lagMillis.set(Math.max(0, Duration.between(bound, Instant.now()).toMillis()));
                Optional<ChainStore.Watermark> mark = ChainStore.watermark(c);
                List<AuditRecord> rows = ChainStore.unchained(c, mark, bound, BATCH);
                if (rows.isEmpty()) {
                    return 0;
                }
                Set<UUID> tenants = new LinkedHashSet<>();
                rows.forEach(r -> tenants.add(r.tenantId()));
                Map<UUID, ChainStore.Head> heads = new HashMap<>(ChainStore.heads(c, tenants));
                List<Long> positions = ChainStore.positions(c, rows.size());
                List<AuditRecord> linked = new ArrayList<>(rows.size());
                for (int k = 0; k < rows.size(); k++) {
                    AuditRecord r = rows.get(k);
                    ChainStore.Head head = heads.get(r.tenantId());
                    long seq = head == null ? 1 : head.seq() + 1;
                    byte[] hash = AuditChain.link(head == null ? AuditChain.GENESIS : head.hash(), r.content());
                    linked.add(r.chained(seq, hash, positions.get(k)));
                    heads.put(r.tenantId(), new ChainStore.Head(r.tenantId(), seq, hash, r.occurredAt(), r.id()));
                }
                // a row linked already (it cannot be, short of a manual edit) fails the insert on the links' key, and
                // the whole transaction with it: nothing is linked twice
                ChainStore.link(c, linked);
                ChainStore.rollUp(c, linked);
                ChainStore.saveHeads(c, heads.values().stream().filter(h -> tenants.contains(h.tenantId())).toList());
                AuditRecord last = rows.getLast();
                ChainStore.saveWatermark(c, new ChainStore.Watermark(last.occurredAt(), last.id()));
                return rows.size();
            });
            total += n;
            if (n < BATCH) {
                break;
            }
        }
        return total;
    }

    /** Seals every head that moved since its last seal; returns how many. */
    public int seal() {
        int n = 0;
        for (ChainStore.Head h : store.unsealedHeads()) {
            Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS);
            store.saveSeal(new ChainStore.Seal(h.tenantId(), h.seq(), h.hash(), at, key.map(SealKey::id),
                    key.map(k -> k.mac(h.tenantId(), h.seq(), h.hash(), at))));
            n++;
        }
        return n;
    }

    /** How far the chain lags the log (the bound's distance from now at the last run). */
    public Duration lag() {
        return Duration.ofMillis(lagMillis.get());
    }

    /** The chaining job (every {@code every}) and the sealing job (every {@code sealEvery}). */
    public List<PeriodicJob> periodicJobs(Duration every, Duration sealEvery) {
        if (key.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "audit.seal.key is not set: chain heads are recorded unsealed, so the "
                    + "chain detects edited, deleted and inserted rows but not a rewrite of the whole chain");
        }
        return List.of(new PeriodicJob("audit-chain", every, this::chainOnce),
                new PeriodicJob("audit-seal", sealEvery, this::seal));
    }
}
