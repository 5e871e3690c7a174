package dev.backplane.kernel.audit;

import dev.backplane.kernel.audit.archive.ArchiveStore;
import dev.backplane.kernel.audit.archive.AuditArchives;
import dev.backplane.kernel.audit.integrity.ChainStore;
import dev.backplane.kernel.audit.integrity.Chainer;
import dev.backplane.kernel.audit.integrity.SealKey;
import dev.backplane.kernel.audit.integrity.Verifier;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The audit log's integrity and lifecycle, assembled: the chainer and its seals, verify, and retention with
 * its archives (docs/operations/audit-log.md).
 *
 * @param schedule how often each job runs; chaining can be switched off (to measure what it costs)
 */
public record AuditIntegrity(ChainStore chain, Chainer chainer, Verifier verifier, AuditArchives archives,
                             Schedule schedule) {

    /** When the jobs run. */
    public record Schedule(boolean chainEnabled, Duration chainEvery, Duration sealEvery, Duration retentionEvery) {
    }

    public static AuditIntegrity create(Jdbc jdbc, MeterRegistry metrics, Optional<SealKey> key,
                                        AuditArchives.Policy policy, Schedule schedule) {
        ChainStore chain = new ChainStore(jdbc);
        ArchiveStore archiveStore = new ArchiveStore(jdbc);
        return new AuditIntegrity(chain, new Chainer(chain, key, metrics),
                new Verifier(chain, key, archiveStore::archivedLink),
                new AuditArchives(archiveStore, policy, metrics), schedule);
    }

    public List<PeriodicJob> periodicJobs() {
        List<PeriodicJob> jobs = new ArrayList<>();
        if (schedule.chainEnabled()) {
            jobs.addAll(chainer.periodicJobs(schedule.chainEvery(), schedule.sealEvery()));
        }
        jobs.addAll(archives.periodicJobs(schedule.retentionEvery()));
        return jobs;
    }
}
