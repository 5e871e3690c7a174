package dev.backplane.kernel.audit.archive;

import dev.backplane.kernel.audit.AuditErrors;
import dev.backplane.kernel.audit.integrity.ChainStore;
import dev.backplane.kernel.persistence.PeriodicJob;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Retention and archive. Partitions are created months ahead; a partition whose every tenant's retention has
 * passed (retention is a tenant's minimum keep: a month is dropped whole, never row by row, once the longest
 * retention among the tenants with rows in it has passed) is archived to the archive directory, the archive is
 * read back and verified, and only then is the partition detached and dropped. Without an archive directory,
 * or when writing or verifying the archive fails, nothing is dropped: the drop waits, {@code
 * svc.audit.retention.blocked} says so and the failure is logged and counted.
 */
public final class AuditArchives {

    private static final System.Logger LOG = System.getLogger(AuditArchives.class.getName());

    /** The deploy's retention rules. */
    public record Policy(int defaultDays, int minimumDays, int partitionsAhead, Optional<Path> archiveDir) {
    }

    private final ArchiveStore store;
    private final ChainStore chain;
    private final Policy policy;
    private final AtomicInteger blocked = new AtomicInteger();
    private final Counter failures;

    public AuditArchives(ArchiveStore store, Policy policy, MeterRegistry metrics) {
        this.store = store;
        this.chain = new ChainStore(store.jdbc());
        this.policy = policy;
        metrics.gauge("svc.audit.retention.blocked", blocked);
        this.failures = metrics.counter("svc.audit.archive.failures");
    }

    public ArchiveStore store() {
        return store;
    }

    public Policy policy() {
        return policy;
    }

    /** A tenant's retention in days: its own, else the deploy's default, never below the deploy's minimum. */
    public int retentionDays(UUID tenant) {
        return Math.max(policy.minimumDays(), store.retention(tenant).orElse(policy.defaultDays()));
    }

    /** Sets a tenant's retention; refuses one below the deploy's minimum. */
    public void setRetention(UUID tenant, int days, String by) {
        if (days < policy.minimumDays() || days > 36500) {
            throw AuditErrors.INVALID_RETENTION.error("retention must be " + policy.minimumDays() + "..36500 days (the "
                    + "deploy's minimum is " + policy.minimumDays() + "), got " + days, Map.of("field", "days"));
        }
        store.setRetention(tenant, days, by);
    }

    /** One round: partitions ahead, then every expired partition archived, verified and dropped. Returns drops. */
    public int runOnce() {
        List<String> created = store.ensureAhead(policy.partitionsAhead());
        created.forEach(p -> LOG.log(System.Logger.Level.INFO, "audit: created partition " + p));
        int dropped = 0;
        int waiting = 0;
        for (ArchiveStore.Partition p : expired()) {
            if (policy.archiveDir().isEmpty()) {
                waiting++;
                LOG.log(System.Logger.Level.WARNING, "audit: partition " + p.name() + " is past retention but is kept: "
                        + "audit.archive.dir is not set, and no partition is dropped without its archive");
                continue;
            }
            try {
                ArchiveStore.Archive a = archive(p);
                if (store.drop(p.name(), a.rowCount(), a.name())) {
                    dropped++;
                    LOG.log(System.Logger.Level.INFO, "audit: dropped partition " + p.name() + " (" + a.rowCount()
                            + " rows) after archiving and verifying it as " + a.name());
                } else {
                    waiting++;
                }
            } catch (RuntimeException | IOException e) {
                waiting++;
                failures.increment();
                LOG.log(System.Logger.Level.ERROR, "audit: partition " + p.name() + " is past retention but could not "
                        + "be archived, so it is kept: " + e.getMessage());
            }
        }
        blocked.set(waiting);
        return dropped;
    }

    /** Partitions every tenant with rows in them no longer needs. */
    List<ArchiveStore.Partition> expired() {
        Instant now = Instant.now();
        List<ArchiveStore.Partition> out = new ArrayList<>();
        for (ArchiveStore.Partition p : store.partitions()) {
            if (!p.to().isBefore(now.minus(Duration.ofDays(policy.minimumDays())))) {
                continue;
            }
            int keep = store.tenantsIn(p.name()).stream().mapToInt(this::retentionDays).max().orElse(policy.minimumDays());
            if (p.to().plus(Duration.ofDays(keep)).isBefore(now)) {
                out.add(p);
            }
        }
        return out;
    }

    /** Archives a partition (again, if it was), verifies what was written, and records it. */
    public ArchiveStore.Archive archive(ArchiveStore.Partition p) throws IOException {
        Path dir = policy.archiveDir().orElseThrow(() -> AuditErrors.ARCHIVE_NOT_CONFIGURED.error(
                "no archive directory is configured (audit.archive.dir)"));
        String name = p.name().substring("audit_rows_".length());
        Map<String, Object> manifest;
        try (ArchiveFiles.Writer w = ArchiveFiles.writer(dir, name,
                row -> chain.linkBefore(row.tenantId(), row).or(() -> store.archivedLink(row.tenantId(), row.chainSeq() - 1)))) {
            store.export(p.name(), r -> w.write(r));
            Map<String, Object> header = new LinkedHashMap<>();
            header.put("partition", p.name());
            header.put("range_from", p.from().map(Instant::toString).orElse(null));
            header.put("range_to", p.to().toString());
            header.put("created_at", Instant.now().toString());
            manifest = w.finish(header);
        }
        ArchiveFiles.Report check = ArchiveFiles.verify(ArchiveFiles.manifest(dir, name));
        if (!check.ok()) {
            throw new IOException("the archive written for " + p.name() + " does not verify: " + check.problems().getFirst().detail());
        }
        ArchiveStore.Archive a = new ArchiveStore.Archive(name, p.name(), p.from(), p.to(),
                ((Number) manifest.get("row_count")).longValue(), (String) manifest.get("sha256"),
                ((Number) manifest.get("bytes")).longValue(), manifest,
                Map.of("dir", dir.toAbsolutePath().toString(), "rows", ArchiveFiles.rows(dir, name).getFileName().toString(),
                        "manifest", ArchiveFiles.manifest(dir, name).getFileName().toString()),
                Instant.now(), Optional.of(Instant.now()), Optional.empty());
        store.saveArchive(a);
        return a;
    }

    /** Archives the named partition now (for an operator, or a benchmark), without dropping it. */
    public ArchiveStore.Archive archiveNow(String partition) throws IOException {
        ArchiveStore.Partition p = store.partitions().stream().filter(x -> x.name().equals(partition)).findFirst()
                .orElseThrow(() -> AuditErrors.ARCHIVE_NOT_FOUND.error("no partition " + partition));
        return archive(p);
    }

    public List<ArchiveStore.Archive> archives() {
        return store.archives();
    }

    /** Verifies an archive's files as they are now (without the database's rows). */
    public ArchiveFiles.Report verify(String name) {
        ArchiveStore.Archive a = known(name);
        Path manifest = Path.of((String) a.locations().get("dir")).resolve((String) a.locations().get("manifest"));
        if (!Files.isRegularFile(manifest)) {
            throw AuditErrors.ARCHIVE_UNREADABLE.error("archive " + name + "'s manifest is not at " + manifest);
        }
        try {
            ArchiveFiles.Report r = ArchiveFiles.verify(manifest);
            if (r.ok()) {
                store.markVerified(name);
            }
            return r;
        } catch (IOException e) {
            throw AuditErrors.ARCHIVE_UNREADABLE.error("archive " + name + " could not be read: " + e.getMessage());
        }
    }

    /** Restores an archive into a read-only table; returns the table, the row count and the archive's verification. */
    public Map<String, Object> restore(String name) {
        ArchiveStore.Archive a = known(name);
        ArchiveFiles.Report check = verify(name);
        Path rows = Path.of((String) a.locations().get("dir")).resolve((String) a.locations().get("rows"));
        String table = store.restore(name, each -> ArchiveFiles.readRows(rows, each));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("archive", name);
        out.put("table", table);
        out.put("rows", check.rows());
        out.put("verified", check);
        return out;
    }

    private ArchiveStore.Archive known(String name) {
        return store.archive(name).orElseThrow(() -> AuditErrors.ARCHIVE_NOT_FOUND.error("no audit archive " + name));
    }

    /** The retention job (partitions ahead, archive, drop) every {@code every}. */
    public List<PeriodicJob> periodicJobs(Duration every) {
        return List.of(new PeriodicJob("audit-retention", every, this::runOnce));
    }
}
