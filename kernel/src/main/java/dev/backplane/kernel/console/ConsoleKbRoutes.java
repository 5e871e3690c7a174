package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.http.ErrorMapping;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.kb.KbIngestService;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code /ui/kb}: hybrid search with snippets and scores, entry view (Markdown rendered safely),
 * add/edit and delete with a confirmation step for tenant_admin, and ingest of a directory on the host
 * with its job's progress. Writes go through {@link KbService} and {@link KbIngestService} exactly as
 * {@code POST /api/v1/kb}, {@code DELETE /api/v1/kb/{slug}} and {@code POST /api/v1/kb/ingest} do, with the
 * same audit rows.
 */
public final class ConsoleKbRoutes implements ConsoleRoutes.PageGroupRoutes {

    static final int SEARCH_LIMIT = 10;
    static final int LIST_LIMIT = 100;

    private final KbService kb;
    private final KbIngestService ingest;
    private final Markdown markdown = new Markdown();
    private ConsoleRoutes console;

    public ConsoleKbRoutes(KbService kb, KbIngestService ingest) {
        this.kb = kb;
        this.ingest = ingest;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/kb", Role.READ_ONLY, this::search);
        console.page(routing, Method.GET, "/ui/kb/new", Role.TENANT_ADMIN, (req, res, s, f) ->
                form(res, s, Status.OK_200, "", "", "", false, null));
        console.page(routing, Method.POST, "/ui/kb", Role.TENANT_ADMIN, this::save);
        console.page(routing, Method.GET, "/ui/kb/ingest", Role.TENANT_ADMIN, (req, res, s, f) ->
                console.render(res, Status.OK_200, "kbIngest.jte", new ConsolePages.IngestFormPage(
                        s.frame("Ingest into the kb"), Map.of(), null)));
        console.page(routing, Method.POST, "/ui/kb/ingest", Role.TENANT_ADMIN, this::ingest);
        console.page(routing, Method.GET, "/ui/kb/ingest-jobs/{job_id}", Role.TENANT_ADMIN, this::ingestJob);
        console.page(routing, Method.GET, "/ui/kb/entry/{slug}", Role.READ_ONLY, this::show);
        console.page(routing, Method.GET, "/ui/kb/entry/{slug}/edit", Role.TENANT_ADMIN, (req, res, s, f) -> {
            KbService.Entry e = kb.show(s.caller().tenantId(), slug(req));
            form(res, s, Status.OK_200, e.slug(), e.body(), MetadataText.format(e.metadata()), true, null);
        });
        console.page(routing, Method.GET, "/ui/kb/entry/{slug}/delete", Role.TENANT_ADMIN, (req, res, s, f) -> {
            KbService.Entry e = kb.show(s.caller().tenantId(), slug(req));
            console.render(res, Status.OK_200, "confirm.jte", new ConsolePages.ConfirmPage(s.frame("Delete " + e.slug()),
                    "Delete kb entry " + e.slug() + "?", "The entry and its search index rows are removed for good.",
                    ConsoleLinks.kbEntry(e.slug()) + "/delete", "Delete", ConsoleLinks.kbEntry(e.slug())));
        });
        console.page(routing, Method.POST, "/ui/kb/entry/{slug}/delete", Role.TENANT_ADMIN, this::delete);
    }

    private static String slug(ServerRequest req) {
        return req.path().pathParameters().get("slug");
    }

    private void search(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        Caller c = s.caller();
        String query = req.query().first("q").orElse("").trim();
        String metadata = req.query().first("metadata").orElse("");
        List<KbService.Hit> hits = query.isEmpty() ? null
                : kb.search(c, SearchLog.Transport.REST, query, SEARCH_LIMIT, MetadataText.parse(metadata, "metadata"));
        List<KbService.Entry> entries = query.isEmpty() ? kb.list(c.tenantId(), Optional.empty(), LIST_LIMIT, 0) : List.of();
        console.render(res, Status.OK_200, "kb.jte", new ConsolePages.KbPage(s.frame("Knowledge base"), query, metadata,
                hits, entries, c.effectiveRole().includes(Role.TENANT_ADMIN)));
    }

    private void show(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        KbService.Entry e = kb.show(s.caller().tenantId(), slug(req));
        console.render(res, Status.OK_200, "kbEntry.jte", new ConsolePages.KbEntryPage(s.frame(e.slug()), e,
                MetadataText.format(e.metadata()), markdown.toHtml(e.body()),
                s.caller().effectiveRole().includes(Role.TENANT_ADMIN)));
    }

    private void save(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        String slug = f.getOrDefault("slug", "").trim();
        String body = f.getOrDefault("body", "").replace("\r\n", "\n");
        String metadataText = f.getOrDefault("metadata", "");
        boolean editing = f.containsKey("editing");
        KbService.Added added;
        Map<String, Object> metadata;
        try {
            metadata = MetadataText.parse(metadataText, "metadata");
            added = kb.add(s.caller().tenantId(), slug, body, metadata, s.caller().sub());
        } catch (DomainException e) {
            if (e.kind() != ErrorKind.INVALID) {
                throw e;
            }
            form(res, s, ErrorMapping.status(e.kind()), slug, body, metadataText, editing, e.getMessage());
            return;
        }
        Map<String, Object> sent = new LinkedHashMap<>();
        sent.put("slug", slug);
        sent.put("body", body);
        sent.put("metadata", metadata);
        console.audited(s.caller(), "POST /api/v1/kb", Map.of(), Optional.of(JsonMapping.mapper().valueToTree(sent)),
                added.outcome().equals("created") ? 201 : 200);
        ConsoleRoutes.redirect(res, Status.SEE_OTHER_303, ConsoleLinks.kbEntry(added.entry().slug()));
    }

    private void delete(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        String slug = slug(req);
        kb.delete(s.caller().tenantId(), slug);
        console.audited(s.caller(), "DELETE /api/v1/kb/{slug}", Map.of("slug", slug), Optional.empty(), 200);
        ConsoleRoutes.redirect(res, Status.SEE_OTHER_303, "/ui/kb");
    }

    private void form(ServerResponse res, ConsoleRoutes.Signed s, Status status, String slug, String body,
                      String metadata, boolean editing, String error) {
        console.render(res, status, "kbForm.jte", new ConsolePages.KbFormPage(s.frame(editing ? "Edit " + slug
                : "Add an entry"), slug, body, metadata, editing, error));
    }

    private void ingest(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        String directory = f.getOrDefault("directory", "").strip();
        boolean dryRun = "true".equals(f.get("dry_run"));
        Map<String, Object> answer;
        try {
            answer = ingest.ingest(s.caller(), directory, dryRun);
        } catch (DomainException e) {
            if (e.kind() != ErrorKind.INVALID) {
                throw e;
            }
            console.render(res, ErrorMapping.status(e.kind()), "kbIngest.jte", new ConsolePages.IngestFormPage(
                    s.frame("Ingest into the kb"), Map.of("directory", directory, "dry_run", String.valueOf(dryRun)),
                    e.getMessage()));
            return;
        }
        Map<String, Object> sent = new LinkedHashMap<>();
        sent.put("directory", directory);
        sent.put("dry_run", dryRun);
        console.audited(s.caller(), "POST /api/v1/kb/ingest", Map.of(),
                Optional.of(JsonMapping.mapper().valueToTree(sent)), dryRun ? 200 : 202);
        if (dryRun) {
            console.render(res, Status.OK_200, "ingestStatus.jte", new ConsolePages.IngestStatusPage(
                    s.frame("Ingest into the kb"), "Dry run: nothing was written", answer, null, null));
            return;
        }
        ConsoleRoutes.redirect(res, Status.SEE_OTHER_303, "/ui/kb/ingest-jobs/" + answer.get("job_id"));
    }

    private void ingestJob(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        UUID id;
        try {
            id = UUID.fromString(req.path().pathParameters().get("job_id"));
        } catch (IllegalArgumentException e) {
            throw dev.backplane.kernel.errors.CommonErrors.INVALID_REQUEST.error("job_id must be a uuid",
                    Map.of("field", "job_id"));
        }
        Map<String, Object> job = new LinkedHashMap<>(ingest.job(s.caller(), id));
        boolean terminal = Boolean.TRUE.equals(job.get("terminal"));
        job.remove("poll_url");
        console.render(res, Status.OK_200, "ingestStatus.jte", new ConsolePages.IngestStatusPage(
                s.frame("kb ingest job"), "kb ingest job " + job.get("status"), job, null,
                terminal ? null : ConsoleIngestRoutes.REFRESH_SECONDS));
    }
}
