package dev.backplane.kernel.kb;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.retrieval.SearchLog;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /api/v1/kb}: list, show, add and search (kb on every non-agent surface), delete on REST only,
 * and ingest of a directory on the backplane host (a background job, polled at {@code /api/v1/kb/ingest-jobs}).
 */
public record KbRoutes(KbService kb, KbIngestService ingest) {

    /** Body of an add. */
    record AddBody(String slug, String body, Map<String, Object> metadata) {
    }

    /** Body of a search. */
    record SearchBody(String query, Optional<Integer> limit, Map<String, Object> filters) {
        SearchBody {
            limit = limit == null ? Optional.empty() : limit;
        }
    }

    /** Body of an ingest: a directory on the backplane host, inside the ingest root. */
    record IngestBody(String directory, Boolean dryRun) {
    }

    public void register(ApiRoutes api) {
        api.get("/api/v1/kb", Role.READ_ONLY, this::list)
                // agents with tenant_admin may add knowledge, as the MCP tool add_to_knowledge lets them
                .post("/api/v1/kb", Role.TENANT_ADMIN, ApiRoutes.Callers.ANY, this::add)
                .post("/api/v1/kb/search", Role.READ_ONLY, this::search)
                .post("/api/v1/kb/ingest", Role.TENANT_ADMIN, this::ingest)
                .get(KbIngestService.JOBS + "/{job_id}", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res,
                        ingest.job(c, QueryParams.uuidPath(req, "job_id"))));
        api.collection("/api/v1/kb", "slug", Role.READ_ONLY, Role.TENANT_ADMIN)
                .show((c, slug) -> kb.show(c.tenantId(), slug))
                .delete((c, slug) -> kb.delete(c.tenantId(), slug));
    }

    private void list(ServerRequest req, ServerResponse res, Caller c) {
        Json.ok(res, kb.list(c.tenantId(), req.query().first("filter").asOptional(),
                QueryParams.integer(req, "limit", 100), QueryParams.integer(req, "offset", 0)));
    }

    private void add(ServerRequest req, ServerResponse res, Caller c) {
        AddBody body = Json.read(req, AddBody.class);
        KbService.Added added = kb.add(c.tenantId(), body.slug(), body.body(), body.metadata(), c.sub());
        Json.send(res, added.outcome().equals("created") ? Status.CREATED_201 : Status.OK_200,
                Map.of("entry", added.entry(), "outcome", added.outcome()));
    }

    private void search(ServerRequest req, ServerResponse res, Caller c) {
        SearchBody body = Json.read(req, SearchBody.class);
        Json.ok(res, kb.result(c, SearchLog.Transport.REST, body.query(), body.limit().orElse(10), body.filters())
                .body());
    }

    private void ingest(ServerRequest req, ServerResponse res, Caller c) {
        IngestBody body = Json.read(req, IngestBody.class);
        boolean dryRun = Boolean.TRUE.equals(body.dryRun());
        Map<String, Object> answer = ingest.ingest(c, body.directory(), dryRun);
        Json.send(res, dryRun ? Status.OK_200 : Status.ACCEPTED_202, answer);
    }
}
