package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.results.ResultQuery;
import dev.backplane.kernel.results.ResultQueryService;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code POST /api/v1/operations/call}, {@code /preview} and {@code /result-query}. Every envelope
 * status (ok, error, denied, awaiting_approval, unavailable) answers HTTP 200: the outcome is in
 * the body; HTTP errors are for requests that could not be understood or resolved.
 */
public record DispatchRoutes(OperationCalls calls, Dispatcher dispatcher, ResultQueryService results, AsyncRuns runs) {

    public void register(ApiRoutes api) {
        api.post("/api/v1/operations/call", Role.OPERATOR, this::call)
                .post("/api/v1/operations/preview", Role.OPERATOR, this::preview)
                .post("/api/v1/operations/result-query", Role.OPERATOR, this::resultQuery)
                .get("/api/v1/operations/runs/{handle}", Role.OPERATOR, (req, res, c) -> Json.ok(res,
                        runs.show(c.tenantId(), c.sub(), QueryParams.uuidPath(req, "handle", AsyncRuns::notFound))))
                .post("/api/v1/operations/runs/{handle}/cancel", Role.OPERATOR, (req, res, c) -> Json.ok(res,
                        runs.cancel(c, QueryParams.uuidPath(req, "handle", AsyncRuns::notFound))));
    }

    private void call(ServerRequest req, ServerResponse res, Caller caller) {
        CallRequest body = Json.read(req, CallRequest.class);
        if (body.async().orElse(false)) {
            Json.send(res, Status.ACCEPTED_202, calls.start(caller, body));
        } else {
            Json.ok(res, calls.call(caller, body));
        }
    }

    private void preview(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, dispatcher.preview(caller, Json.read(req, CallRequest.class)));
    }

    private void resultQuery(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, results.query(caller.tenantId(), caller.sub(), Json.read(req, ResultQuery.class)));
    }
}
