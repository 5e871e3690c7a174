package dev.backplane.kernel.quality;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;

/** {@code /api/v1/retrieval}: eval against the grep baseline, the retire checklist, and usage. */
public record RetrievalRoutes(RetrievalEval eval, RetireChecklist checklist, UsageReport usage) {

    /** Body of an eval. */
    record EvalBody(String surface, String baseline, Boolean saveBaseline, Boolean compareBaseline) {
    }

    public void register(ApiRoutes api) {
        api.post("/api/v1/retrieval/eval", Role.OPERATOR, this::eval)
                .get("/api/v1/retrieval/retire-checklist", Role.OPERATOR, (req, res, c) -> Json.ok(res,
                        checklist.checklist(c)))
                .get("/api/v1/retrieval/usage", Role.OPERATOR, this::usage);
    }

    private void eval(ServerRequest req, ServerResponse res, Caller c) {
        EvalBody b = Json.read(req, EvalBody.class);
        Json.ok(res, eval.run(c, Optional.ofNullable(b.surface()), Optional.ofNullable(b.baseline()),
                Boolean.TRUE.equals(b.saveBaseline()), Boolean.TRUE.equals(b.compareBaseline())));
    }

    private void usage(ServerRequest req, ServerResponse res, Caller c) {
        String view = req.query().first("view").asOptional().orElse("mine");
        if (!view.equals("mine") && !view.equals("tenant")) {
            throw QualityErrors.INVALID_VIEW.error("view must be mine or tenant, got '" + view + "'",
                    Map.of("field", "view"));
        }
        Json.ok(res, usage.report(c, req.query().first("since").asOptional(), req.query().first("surface").asOptional(),
                view.equals("tenant")));
    }
}
