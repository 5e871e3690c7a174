package dev.backplane.kernel.console;

import dev.backplane.kernel.catalog.SpecIngestService;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.http.ErrorMapping;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code /ui/ingest}: ingest a vendor API spec (an uploaded or pasted file, or a catalog entry) into the
 * tenant acted on, through {@link SpecIngestService} as {@code POST /api/v1/connectors/ingest} does and
 * with its audit row; a spec too big to ingest within the request runs as a job whose page reloads
 * itself until the job ends.
 */
public final class ConsoleIngestRoutes implements ConsoleRoutes.PageGroupRoutes {

    /** Seconds between reloads of a running job's page. */
    static final String REFRESH_SECONDS = "2";

    private final SpecIngestService ingest;
    private ConsoleRoutes console;

    public ConsoleIngestRoutes(SpecIngestService ingest) {
        this.ingest = ingest;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/ingest", Role.TENANT_ADMIN, (req, res, s, f) ->
                console.render(res, Status.OK_200, "ingest.jte", new ConsolePages.IngestFormPage(
                        s.frame("Ingest a spec"), Map.of(), null)));
        console.page(routing, Method.POST, "/ui/ingest", Role.TENANT_ADMIN, this::ingest);
        console.page(routing, Method.GET, "/ui/ingest/jobs/{job_id}", Role.TENANT_ADMIN, this::job);
    }

    private void ingest(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        Caller c = s.caller();
        List<SpecIngestService.SpecUpload> specs = new ArrayList<>();
        if (!f.getOrDefault("spec", "").isBlank()) {
            specs.add(new SpecIngestService.SpecUpload(f.getOrDefault("spec.filename", "upload"), f.get("spec")));
        }
        if (!f.getOrDefault("spec_text", "").isBlank()) {
            specs.add(new SpecIngestService.SpecUpload("pasted", f.get("spec_text")));
        }
        List<String> secretFields = Arrays.stream(f.getOrDefault("auth_secret_fields", "").split(","))
                .map(String::strip).filter(v -> !v.isEmpty()).toList();
        boolean dryRun = "true".equals(f.get("dry_run"));
        SpecIngestService.IngestRequest request = new SpecIngestService.IngestRequest(text(f, "catalog"),
                text(f, "product"), text(f, "version"), text(f, "impl"), specs, text(f, "auth_scheme"), secretFields,
                Map.of(), List.of(), dryRun, Optional.of(c.tenantId().toString()), Optional.empty());
        SpecIngestService.Answer answer;
        try {
            answer = ingest.ingest(c, request);
        } catch (DomainException e) {
            if (e.kind() != ErrorKind.INVALID && e.kind() != ErrorKind.NOT_FOUND && e.kind() != ErrorKind.BAD_REQUEST) {
                throw e;
            }
            Map<String, String> refill = new LinkedHashMap<>(f);
            refill.keySet().removeAll(List.of("_csrf", "spec", "spec.filename"));
            console.render(res, ErrorMapping.status(e.kind()), "ingest.jte", new ConsolePages.IngestFormPage(
                    s.frame("Ingest a spec"), refill, e.getMessage()));
            return;
        }
        int status = answer instanceof SpecIngestService.Answer.Started ? 202 : 200;
        console.audited(c, "POST /api/v1/connectors/ingest", Map.of(),
                Optional.of(JsonMapping.mapper().valueToTree(request)), status);
        switch (answer) {
            case SpecIngestService.Answer.Done done -> console.render(res, Status.OK_200, "ingestStatus.jte",
                    new ConsolePages.IngestStatusPage(s.frame("Ingest"), dryRun ? "Dry run: nothing was written"
                            : "Ingested", done.result(), dryRun ? null : connectorId(done.result()), null));
            case SpecIngestService.Answer.Started started -> ConsoleRoutes.redirect(res, Status.SEE_OTHER_303,
                    "/ui/ingest/jobs/" + started.job().get("job_id"));
        }
    }

    private void job(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        UUID id;
        try {
            id = UUID.fromString(req.path().pathParameters().get("job_id"));
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_REQUEST.error("job_id must be a uuid", Map.of("field", "job_id"));
        }
        Map<String, Object> job = ingest.job(s.caller(), id);
        boolean terminal = Boolean.TRUE.equals(job.get("terminal"));
        job.remove("poll_url");
        console.render(res, Status.OK_200, "ingestStatus.jte", new ConsolePages.IngestStatusPage(s.frame("Ingest job"),
                "Ingest job " + job.get("status"), job, connectorId(job), terminal ? null : REFRESH_SECONDS));
    }

    private static Optional<String> text(Map<String, String> form, String field) {
        return Optional.ofNullable(form.get(field)).map(String::strip).filter(v -> !v.isEmpty());
    }

    private static String connectorId(Map<String, Object> m) {
        Object id = m.get("connector_id");
        return id == null || String.valueOf(id).isEmpty() ? null : String.valueOf(id);
    }
}
