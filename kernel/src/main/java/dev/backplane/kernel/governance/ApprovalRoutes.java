package dev.backplane.kernel.governance;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** REST surface of approval requests. Approving runs the parked call through the same pipeline. */
public record ApprovalRoutes(Approvals approvals, ParkedCallRunner runner) {

    /** Body of approve. */
    record Approve(Optional<String> reason, Optional<Boolean> async, Optional<Boolean> breakGlass) {
        Approve {
            reason = reason == null ? Optional.empty() : reason;
            async = async == null ? Optional.empty() : async;
            breakGlass = breakGlass == null ? Optional.empty() : breakGlass;
        }
    }

    /** Body of reject. */
    record Reject(Optional<String> reason) {
        Reject {
            reason = reason == null ? Optional.empty() : reason;
        }
    }

    /** Answer of approve: the decided request and the result of the released call. */
    record Approved(Approvals.Approval approval, Object result) {
    }

    /** Runs a released call: synchronously (returns its envelope) or in the background (returns a run handle). */
    @FunctionalInterface
    public interface ParkedCallRunner {
        Object run(Caller approver, Approvals.Released released, boolean async);
    }

    public void register(ApiRoutes api) {
        api.get("/api/v1/approvals", Role.READ_ONLY, this::list)
                .get("/api/v1/approvals/{id}", Role.READ_ONLY, (req, res, c) ->
                        Json.ok(res, approvals.show(c.tenantId(), id(req))))
                .post("/api/v1/approvals/{id}/approve", Role.TENANT_ADMIN, this::approve)
                .post("/api/v1/approvals/{id}/reject", Role.TENANT_ADMIN, this::reject);
    }

    private static UUID id(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", Approvals::notFound);
    }

    private void list(ServerRequest req, ServerResponse res, Caller caller) {
        int limit = req.query().first("limit").asOptional().map(ApprovalRoutes::number).orElse(50);
        int offset = req.query().first("offset").asOptional().map(ApprovalRoutes::number).orElse(0);
        Json.ok(res, approvals.list(caller.tenantId(), req.query().first("status").asOptional(),
                req.query().first("work_ref").asOptional(), limit, offset));
    }

    private void approve(ServerRequest req, ServerResponse res, Caller caller) {
        Approve body = req.content().hasEntity() ? Json.read(req, Approve.class)
                : new Approve(Optional.empty(), Optional.empty(), Optional.empty());
        boolean async = body.async().orElse(false);
        boolean breakGlass = body.breakGlass().orElse(false);
        Approvals.Released released = approvals.approve(caller, id(req), body.reason(), breakGlass);
        Json.send(res, async ? Status.ACCEPTED_202 : Status.OK_200,
                new Approved(released.approval(), runner.run(caller, released, async)));
    }

    private void reject(ServerRequest req, ServerResponse res, Caller caller) {
        Reject body = req.content().hasEntity() ? Json.read(req, Reject.class) : new Reject(Optional.empty());
        Json.ok(res, approvals.reject(caller, id(req), body.reason()));
    }

    private static int number(String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw CommonErrors.INVALID_LIMIT.error("not a number: '" + text + "'", Map.of());
        }
    }
}
