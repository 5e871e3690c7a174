package dev.backplane.kernel.catalog;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/** REST surface of spec ingest: {@code POST /api/v1/connectors/ingest} and the job status route. */
public record IngestRoutes(SpecIngestService ingest) {

    static final String INGEST = "/api/v1/connectors/ingest";
    static final String JOBS = "/api/v1/connectors/ingest-jobs";

    public void register(ApiRoutes api) {
        api.post(INGEST, Role.TENANT_ADMIN, this::ingest)
                .get(JOBS + "/{job_id}", Role.TENANT_ADMIN, this::job);
    }

    private void ingest(ServerRequest req, ServerResponse res, Caller caller) {
        SpecIngestService.IngestRequest body = Json.read(req, SpecIngestService.IngestRequest.class,
                ingest.maxRequestBytes());
        switch (ingest.ingest(caller, body)) {
            case SpecIngestService.Answer.Done done -> Json.ok(res, done.result());
            case SpecIngestService.Answer.Started started -> {
                res.header("Location", String.valueOf(started.job().get("poll_url")));
                Json.send(res, Status.ACCEPTED_202, started.job());
            }
        }
    }

    private void job(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, ingest.job(caller, QueryParams.uuidPath(req, "job_id")));
    }
}
