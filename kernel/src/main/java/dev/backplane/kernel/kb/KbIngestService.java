package dev.backplane.kernel.kb;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.jobs.BackgroundJob;
import dev.backplane.kernel.jobs.BackgroundJobs;
import dev.backplane.kernel.jobs.JobKind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code svc kb ingest <directory>}: every Markdown and text file below a directory on the backplane
 * host (inside the caller's tenant folder of the {@link IngestRoot}, {@code <root>/<tenant-id>/}) becomes a
 * kb entry through {@link KbService#add} — so re-ingest updates in place and an unchanged body is not
 * embedded again. A dry run answers at once with what would be created, updated or left unchanged and
 * writes nothing; a real run is a {@link BackgroundJobs background job} whose row carries its progress
 * (any replica answers the poll). A file that cannot be an entry is reported in the job's file list; it
 * does not stop the run.
 */
public final class KbIngestService {

    static final int MAX_FILES = 10_000;
    static final String JOBS = "/api/v1/kb/ingest-jobs";
    /** A kb directory ingest; it reads running from the start (its status route knows no queued). */
    public static final JobKind JOB_KIND = new JobKind("kb_ingest", "kb ingest", "ingest", JOBS, false,
            "the kernel running this ingest stopped; run the ingest again (finished files are kept)");

    private final BackgroundJobs jobs;
    private final KbService kb;
    private final IngestRoot root;

    public KbIngestService(BackgroundJobs jobs, KbService kb, IngestRoot root) {
        this.jobs = jobs;
        this.kb = kb;
        this.root = root;
    }

    /** A dry run's report (nothing written), or a started job. */
    public Map<String, Object> ingest(Caller caller, String directory, boolean dryRun) {
        IngestRoot.Folder folder = root.folder(caller.tenantId());
        Path dir = folder.resolve(directory);
        List<Path> files;
        try {
            files = KbFiles.walk(dir, MAX_FILES);
        } catch (IOException e) {
            throw KbErrors.DIRECTORY_NOT_FOUND.error("cannot read " + dir + ": " + e.getMessage(),
                    Map.of("field", "directory"));
        }
        if (files.size() > MAX_FILES) {
            throw KbErrors.TOO_MANY_FILES.error(dir + " holds more than " + MAX_FILES + " files to "
                    + "ingest; ingest its subdirectories one at a time", Map.of("max_files", MAX_FILES));
        }
        if (dryRun) {
            Tally tally = new Tally(files.size());
            for (Prepared p : prepareAll(folder, dir, files)) {
                tally.add(p.entry() instanceof KbFiles.Prepared.Entry e && p.error() == null
                        ? outcome(() -> kb.outcomeOf(caller.tenantId(), e.slug(), e.body(), e.metadata()), p) : p);
            }
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("dry_run", true);
            report.put("status", "succeeded");
            report.put("directory", dir.toString());
            report.put("progress", tally.progress());
            report.put("files", tally.files);
            return report;
        }
        UUID id = jobs.start(JOB_KIND, caller, Map.of("directory", dir.toString()), new Tally(files.size()).progress(),
                progress -> run(caller, folder, dir, files, progress));
        return job(caller, id);
    }

    /** One file's planned or actual outcome: created, updated, unchanged or error. */
    private record Prepared(KbFiles.Prepared entry, String path, String slug, String outcome, String error) {
    }

    private static final class Tally {
        final int total;
        final Map<String, Integer> counts = new LinkedHashMap<>(Map.of("created", 0, "updated", 0, "unchanged", 0,
                "errors", 0));
        final List<Map<String, Object>> files = new ArrayList<>();

        Tally(int total) {
            this.total = total;
        }

        void add(Prepared p) {
            counts.merge(p.error() != null ? "errors" : p.outcome(), 1, Integer::sum);
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("path", p.path());
            f.put("slug", p.slug());
            f.put("outcome", p.error() != null ? "error" : p.outcome());
            if (p.error() != null) {
                f.put("error", p.error());
            }
            files.add(f);
        }

        Map<String, Object> progress() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("total", total);
            m.put("done", files.size());
            m.put("created", counts.get("created"));
            m.put("updated", counts.get("updated"));
            m.put("unchanged", counts.get("unchanged"));
            m.put("errors", counts.get("errors"));
            return m;
        }
    }

    /** Parses every file; a slug seen twice in one run is an error for the later file. */
    private static List<Prepared> prepareAll(IngestRoot.Folder folder, Path dir, List<Path> files) {
        Path realRoot = folder.realBase();
        Set<String> slugs = new HashSet<>();
        List<Prepared> out = new ArrayList<>();
        for (Path f : files) {
            String relative = dir.relativize(f).toString().replace('\\', '/');
            String source = realRoot.relativize(f).toString().replace('\\', '/');
            KbFiles.Prepared p = KbFiles.prepare(folder, f, relative, source);
            if (p instanceof KbFiles.Prepared.Failed failed) {
                out.add(new Prepared(p, relative, failed.slug(), null, failed.error()));
            } else if (p instanceof KbFiles.Prepared.Entry e && !slugs.add(e.slug())) {
                out.add(new Prepared(p, relative, e.slug(), null, "slug '" + e.slug() + "' already taken by another file "
                        + "of this run; set slug: in its front matter"));
            } else {
                out.add(new Prepared(p, relative, ((KbFiles.Prepared.Entry) p).slug(), null, null));
            }
        }
        return out;
    }

    private static Prepared outcome(java.util.function.Supplier<String> action, Prepared p) {
        try {
            return new Prepared(p.entry(), p.path(), p.slug(), action.get(), null);
        } catch (DomainException e) {
            return new Prepared(p.entry(), p.path(), p.slug(), null, e.code() + ": " + e.getMessage());
        }
    }

    /** Adds every file's entry; the job's result is the file list. */
    private List<Map<String, Object>> run(Caller caller, IngestRoot.Folder folder, Path dir, List<Path> files,
                                          BackgroundJobs.Progress progress) {
        Tally tally = new Tally(files.size());
        for (Prepared p : prepareAll(folder, dir, files)) {
            tally.add(p.entry() instanceof KbFiles.Prepared.Entry e && p.error() == null
                    ? outcome(() -> kb.add(caller.tenantId(), e.slug(), e.body(), e.metadata(), caller.sub())
                    .outcome(), p) : p);
            progress.report(tally.progress());
        }
        return tally.files;
    }

    /** The job as its tenant sees it (another tenant's job is not found). */
    public Map<String, Object> job(Caller caller, UUID id) {
        BackgroundJob job = jobs.job(caller, JOB_KIND, id);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("job_id", id.toString());
        m.put("dry_run", false);
        m.put("status", job.status());
        m.put("terminal", job.terminal());
        m.put("directory", job.details().path("directory").asText());
        m.put("progress", job.progress());
        m.put("files", job.result().isNull() ? List.of() : job.result());
        m.put("error", job.error().isNull() ? null : job.error().path("message").asText());
        m.put("created_at", job.createdAt().toString());
        m.put("finished_at", job.finishedAt().map(Instant::toString).orElse(null));
        m.put("poll_url", job.pollUrl());
        return m;
    }
}
