package dev.backplane.kernel.audit.integrity;

import dev.backplane.kernel.audit.integrity.VerifyReport.Kind;
import dev.backplane.kernel.audit.integrity.VerifyReport.Problem;
import dev.backplane.kernel.util.Times;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Re-computes a tenant's chain from the database and reports the first broken link and what follows: an altered
 * row (its link no longer matches), missing rows (a gap in the sequence, or the head beyond the last row), an
 * inserted row (below the watermark but not in the chain), rows reordered in time, and seals the chain no
 * longer matches or whose signature fails. After a break it resynchronises on the stored link, so one edit
 * is one problem, not every row after it.
 */
public final class Verifier {

    private final ChainStore store;
    private final Optional<SealKey> key;
    private final ArchiveAnchors anchors;

    /** Where the link before a tenant's oldest kept row comes from once its partition was archived and dropped. */
    public interface ArchiveAnchors {
        /** The link of the tenant's row {@code seq}, from an archive's manifest. */
        Optional<byte[]> linkOf(UUID tenant, long seq);
    }

    public Verifier(ChainStore store, Optional<SealKey> key, ArchiveAnchors anchors) {
        this.store = store;
        this.key = key;
        this.anchors = anchors;
    }

    /** Verifies the tenant's rows with times in {@code [since, until)} (either open). */
    public VerifyReport verify(UUID tenant, Optional<Instant> since, Optional<Instant> until) {
        long started = System.nanoTime();
        Optional<ChainStore.Head> head = store.head(tenant);
        Optional<ChainStore.Watermark> mark = store.watermark();
        List<Problem> problems = new ArrayList<>();
        long[] checked = {0};
        long[] lastSeq = {0};
        byte[][] lastHash = {null};
        SealWindow seals = new SealWindow(tenant);
        Object[] walk = {null, null}; // the previous link, the previous row
        try (Pipeline pipeline = new Pipeline(r -> {
                byte[] previous = (byte[]) walk[0];
                AuditRecord before = (AuditRecord) walk[1];
                if (before == null) {
                    previous = previousOf(tenant, r, problems);
                } else if (r.chainSeq() != before.chainSeq() + 1) {
                    add(problems, new Problem(Kind.MISSING, r.chainSeq(), Optional.of(r.id()), Optional.of(r.occurredAt()),
                            "rows " + (before.chainSeq() + 1) + ".." + (r.chainSeq() - 1) + " of the chain are gone (between "
                                    + before.id() + " at " + before.occurredAt() + " and this row)"));
                    previous = null;
                }
                checkLink(r, previous, before, problems);
                for (ChainStore.Seal seal : seals.at(r.chainSeq())) {
                    checkSeal(tenant, seal, r.chainHash(), problems);
                }
                walk[0] = r.chainHash();
                walk[1] = r;
                checked[0]++;
                lastSeq[0] = r.chainSeq();
                lastHash[0] = r.chainHash();
        })) {
            store.walk(tenant, since, until, pipeline);
        }
        if (until.isEmpty() && head.isPresent()) {
            checkHead(head.get(), lastSeq[0], lastHash[0], problems);
        }
        long sealsChecked = seals.checked;
        Instant from = since.orElse(Times.EARLIEST);
        Instant to = until.orElse(Times.LATEST);
        // rows the watermark passed, counted; only when the chain holds fewer are they looked for one by one
        mark.filter(w -> store.passed(tenant, w, from, to) > checked[0]).ifPresent(w -> store.unchainedBelow(tenant, w,
                from, to, VerifyReport.MAX_PROBLEMS).forEach(u -> add(problems, new Problem(Kind.INSERTED, 0,
                Optional.of(u.auditId()), Optional.of(u.occurredAt()), "the row is not in the chain, though the chain has "
                        + "passed its time: it was inserted afterwards"))));
        long pending = store.pending(tenant, mark);
        problems.sort(java.util.Comparator.comparingLong(p -> p.seq() == 0 ? Long.MAX_VALUE : p.seq()));
        double seconds = Math.max(1e-9, (System.nanoTime() - started) / 1e9);
        return new VerifyReport(tenant, problems.isEmpty(), checked[0], (long) (checked[0] / seconds), sealsChecked,
                key.isPresent(), pending, List.copyOf(problems), head.map(ChainStore.Head::seq),
                head.map(ChainStore.Head::occurredAt));
    }

    /** The link before the first row verified: genesis, the stored link of the row before, or an archive's. */
    private byte[] previousOf(UUID tenant, AuditRecord first, List<Problem> problems) {
        if (first.chainSeq() == 1) {
            return AuditChain.GENESIS;
        }
        Optional<byte[]> stored = store.linkBefore(tenant, first);
        if (stored.isPresent()) {
            return stored.get();
        }
        Optional<byte[]> archived = anchors.linkOf(tenant, first.chainSeq() - 1);
        if (archived.isPresent()) {
            return archived.get();
        }
        add(problems, new Problem(Kind.MISSING, first.chainSeq(), Optional.of(first.id()), Optional.of(first.occurredAt()),
                "rows 1.." + (first.chainSeq() - 1) + " of the chain are neither in the log nor in any archive (a "
                        + "partition dropped without its archive, or rows deleted)"));
        return null;
    }

    /** Checks one row's link against {@code previous} (null: unknown after a gap, so only resynchronise). */
    static void checkLink(AuditRecord r, byte[] previous, AuditRecord before, List<Problem> problems) {
        if (previous == null) {
            return;
        }
        byte[] expected = AuditChain.link(previous, r.content());
        if (Arrays.equals(expected, r.chainHash())) {
            return;
        }
        boolean backwards = before != null && r.occurredAt().isBefore(before.occurredAt());
        add(problems, new Problem(backwards ? Kind.REORDERED : Kind.ALTERED, r.chainSeq(), Optional.of(r.id()),
                Optional.of(r.occurredAt()), backwards
                        ? "the row's time is before its predecessor's (" + before.occurredAt() + "): rows were reordered"
                        : "the row's content does not match its link (expected " + HexFormat.of().formatHex(expected, 0, 8)
                        + "..., stored " + (r.chainHash().length >= 8 ? HexFormat.of().formatHex(r.chainHash(), 0, 8) : "?")
                        + "...): the row was altered after it was chained"));
    }

    private static void checkHead(ChainStore.Head head, long lastSeq, byte[] lastHash, List<Problem> problems) {
        if (lastSeq < head.seq()) {
            add(problems, new Problem(Kind.MISSING, lastSeq + 1, Optional.of(head.auditId()), Optional.of(head.occurredAt()),
                    "the chain's head is row " + head.seq() + " but the log ends at row " + lastSeq
                            + ": the newest rows are gone"));
        } else if (lastSeq == head.seq() && !Arrays.equals(lastHash, head.hash())) {
            add(problems, new Problem(Kind.REWRITTEN, lastSeq, Optional.of(head.auditId()), Optional.of(head.occurredAt()),
                    "the last row's link differs from the chain head's: the chain was recomputed"));
        }
    }

    /** The seals of a tenant, read {@link #SEAL_WINDOW} positions at a time as the walk reaches them. */
    private final class SealWindow {
        private final UUID tenant;
        private final TreeMap<Long, List<ChainStore.Seal>> seals = new TreeMap<>();
        private long end;
        private long checked;

        SealWindow(UUID tenant) {
            this.tenant = tenant;
        }

        List<ChainStore.Seal> at(long seq) {
            if (seq > end) {
                seals.clear();
                end = seq + SEAL_WINDOW - 1;
                store.seals(tenant, seq, end).forEach(s -> seals.computeIfAbsent(s.seq(), k -> new ArrayList<>()).add(s));
            }
            List<ChainStore.Seal> here = seals.getOrDefault(seq, List.of());
            checked += here.size();
            return here;
        }
    }

    /** Positions of seals read at once while verifying. */
    private static final long SEAL_WINDOW = 100_000;

    /** A seal against the row at its position: the same link, and a signature the key makes. */
    private void checkSeal(UUID tenant, ChainStore.Seal s, byte[] link, List<Problem> problems) {
        if (!Arrays.equals(link, s.hash())) {
            add(problems, new Problem(Kind.REWRITTEN, s.seq(), Optional.empty(), Optional.of(s.sealedAt()),
                    "the chain at row " + s.seq() + " differs from the seal made at " + s.sealedAt()
                            + ": the chain was recomputed after it was sealed"));
        } else if (key.isPresent() && s.mac().isPresent() && s.keyId().map(key.get().id()::equals).orElse(false)
                && !key.get().verifies(tenant, s.seq(), s.hash(), s.sealedAt(), s.mac().get())) {
            add(problems, new Problem(Kind.FORGED_SEAL, s.seq(), Optional.empty(), Optional.of(s.sealedAt()),
                    "the seal of row " + s.seq() + " does not verify with the seal key"));
        }
    }

    static void add(List<Problem> problems, Problem p) {
        if (problems.size() < VerifyReport.MAX_PROBLEMS) {
            problems.add(p);
        }
    }
}
