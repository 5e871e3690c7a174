package dev.backplane.kernel.kb;

import dev.backplane.kernel.http.ApiException;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code svc kb ingest <directory>}: every Markdown and text file below a directory on the backplane
 * host (inside {@link IngestRoot}) becomes a kb entry through {@link KbService#add} — so re-ingest
 * updates in place and an unchanged body is not embedded again. A dry run answers at once with what
 * would be created, updated or left unchanged and writes nothing; a real run is a background job
 * whose row carries its progress (any replica answers the poll). A file that cannot be an entry is
 * reported in the job's file list; it does not stop the run.
 */
public final class KbIngestService {

    private static final System.Logger LOG = System.getLogger(KbIngestService.class.getName());
    static final int MAX_FILES = 10_000;
    static final String JOBS = "/api/v1/kb/ingest-jobs";

    private final Jdbc jdbc;
    private final KbService kb;
    private final IngestRoot root;
    private final ExecutorService jobs = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("kb-ingest-", 0)
            .factory());

    public KbIngestService(Jdbc jdbc, KbService kb, IngestRoot root) {
        this.jdbc = jdbc;
        this.kb = kb;
        this.root = root;
    }

    /** A dry run's report (nothing written), or a started job. */
    public Map<String, Object> ingest(Caller caller, String directory, boolean dryRun) {
        Path dir = root.resolve(directory);
        List<Path> files;
        try {
            files = KbFiles.walk(dir, MAX_FILES);
        } catch (IOException e) {
            throw ApiException.unprocessable("directory_not_found", "cannot read " + dir + ": " + e.getMessage(),
                    Map.of("field", "directory"));
        }
        if (files.size() > MAX_FILES) {
            throw ApiException.unprocessable("too_many_files", dir + " holds more than " + MAX_FILES + " files to "
                    + "ingest; ingest its subdirectories one at a time", Map.of("max_files", MAX_FILES));
        }
        if (dryRun) {
            Tally tally = new Tally(files.size());
            for (Prepared p : prepareAll(dir, files)) {
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
        UUID id = UUID.randomUUID();
        jdbc.update("""
                INSERT INTO kb_ingest_jobs (id, tenant_id, requested_by, directory, status, progress)
                VALUES (?, ?, ?, ?, 'running', ?)""", id, caller.tenantId(), caller.sub(), dir.toString(),
                Jdbc.jsonb(new Tally(files.size()).progress()));
        jobs.submit(() -> run(id, caller, dir, files));
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
    private List<Prepared> prepareAll(Path dir, List<Path> files) {
        Path realRoot = root.realRoot();
        Set<String> slugs = new HashSet<>();
        List<Prepared> out = new ArrayList<>();
        for (Path f : files) {
            String relative = dir.relativize(f).toString().replace('\\', '/');
            String source = realRoot.relativize(f).toString().replace('\\', '/');
            KbFiles.Prepared p = KbFiles.prepare(root, f, relative, source);
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
        } catch (ApiException e) {
            return new Prepared(p.entry(), p.path(), p.slug(), null, e.code() + ": " + e.getMessage());
        }
    }

    private void run(UUID id, Caller caller, Path dir, List<Path> files) {
        try {
            Tally tally = new Tally(files.size());
            long lastWrite = System.nanoTime();
            for (Prepared p : prepareAll(dir, files)) {
                tally.add(p.entry() instanceof KbFiles.Prepared.Entry e && p.error() == null
                        ? outcome(() -> kb.add(caller.tenantId(), e.slug(), e.body(), e.metadata(), caller.sub())
                        .outcome(), p) : p);
                if (System.nanoTime() - lastWrite > 500_000_000L) {
                    lastWrite = System.nanoTime();
                    jdbc.update("UPDATE kb_ingest_jobs SET progress = ?, updated_at = now() WHERE id = ?",
                            Jdbc.jsonb(tally.progress()), id);
                }
            }
            jdbc.update("""
                    UPDATE kb_ingest_jobs SET status = 'succeeded', progress = ?, files = ?, updated_at = now(),
                           finished_at = now() WHERE id = ?""", Jdbc.jsonb(tally.progress()), Jdbc.jsonb(tally.files), id);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "kb ingest job " + id + " failed", e);
            jdbc.update("UPDATE kb_ingest_jobs SET status = 'failed', error = ?, updated_at = now(), finished_at = now() "
                    + "WHERE id = ?", "kb ingest failed: " + e, id);
        }
    }

    /** Fails jobs whose kernel stopped updating them (it died mid-run); run periodically. */
    public int reapStale() {
        return jdbc.update("""
                UPDATE kb_ingest_jobs SET status = 'failed', updated_at = now(), finished_at = now(),
                       error = 'the kernel running this ingest stopped; run the ingest again (finished files are kept)'
                WHERE status = 'running' AND updated_at < now() - interval '5 minutes'""");
    }

    /** The job as its tenant sees it (another tenant's job is not found). */
    public Map<String, Object> job(Caller caller, UUID id) {
        return jdbc.queryOne("SELECT * FROM kb_ingest_jobs WHERE id = ? AND tenant_id = ?", rs -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("job_id", id.toString());
            m.put("dry_run", false);
            m.put("status", rs.getString("status"));
            m.put("terminal", !rs.getString("status").equals("running"));
            m.put("directory", rs.getString("directory"));
            m.put("progress", tree(rs.getString("progress")));
            m.put("files", tree(rs.getString("files")));
            m.put("error", rs.getString("error"));
            m.put("created_at", rs.getTimestamp("created_at").toInstant().toString());
            m.put("finished_at", Optional.ofNullable(rs.getTimestamp("finished_at")).map(t -> t.toInstant().toString())
                    .orElse(null));
            m.put("poll_url", JOBS + "/" + id);
            return m;
        }, id, caller.tenantId()).orElseThrow(() -> ApiException.notFound("ingest_job_not_found",
                "no kb ingest job " + id + " in this tenant"));
    }

    private static Object tree(String json) throws java.sql.SQLException {
        try {
            return Json.mapper().readTree(json);
        } catch (IOException e) {
            throw new java.sql.SQLException("kb ingest job column is not JSON", e);
        }
    }
}
