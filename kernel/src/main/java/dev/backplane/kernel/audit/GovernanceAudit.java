package dev.backplane.kernel.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.identity.Caller;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The governance audit trail: one audit row for every state-changing REST request that succeeded —
 * connector review and overrides, ingest, targets and their import, secret staging, grants, tenant
 * policies, kb and memory writes, doc collections — with who ({@code principal}), what ({@code op_id}
 * {@code svc.governance.<METHOD> <route>}, the path parameters in the row's extras) and the change
 * ({@link GovernanceChanges}: the fields each route is known to carry as plain settings, everything else —
 * memory bodies, run prompts, spec content, staged secrets — as a digest and size). Routes that write
 * their own audit rows (dispatch, approvals, agent principals, event sources, probes) and POSTs that only
 * read (searches) are exempt. Being registered on the route table, a new route is on the trail unless
 * someone exempts it here — with its body as digests until its fields are listed.
 *
 * <p>The row is written after the change commits (the route layer cannot share the service's
 * transaction); a row that cannot be written is logged loudly and the change stands.
 */
public final class GovernanceAudit implements ApiRoutes.MutationRecorder {

    /** Routes with audit rows of their own, and POSTs that only read. */
    public static final Set<String> EXEMPT = Set.of(
            "POST /api/v1/operations/call", "POST /api/v1/operations/preview", "POST /api/v1/operations/result-query",
            "POST /api/v1/operations/runs/{handle}/cancel",
            "POST /api/v1/approvals/{id}/approve", "POST /api/v1/approvals/{id}/reject",
            "POST /api/v1/agent-principals", "POST /api/v1/agent-principals/{name}/revoke",
            "POST /api/v1/event-sources", "PATCH /api/v1/event-sources/{slug}", "DELETE /api/v1/event-sources/{slug}",
            "POST /api/v1/event-sources/{slug}/pause", "POST /api/v1/event-sources/{slug}/resume",
            "POST /api/v1/targets/{name}/probe", "POST /api/v1/targets/discover",
            "POST /api/v1/docs/collections/{key}/probe", "POST /api/v1/docs/search", "POST /api/v1/docs/ask",
            "POST /api/v1/kb/search", "POST /api/v1/retrieval/eval", "POST /api/v1/conventions/search",
            "POST /api/v1/topology/edges/bulk");

    private static final System.Logger LOG = System.getLogger(GovernanceAudit.class.getName());
    private final AuditLog audit;

    public GovernanceAudit(AuditLog audit) {
        this.audit = audit;
    }

    /** The routes whose body fields are listed as kept as sent ({@code METHOD path-template}); the rest are digests. */
    public static Set<String> routesWithListedFields() {
        return GovernanceChanges.RECORDED.keySet();
    }

    @Override
    public void recorded(Caller caller, String route, Map<String, String> pathParameters, Optional<JsonNode> body,
                         int status) {
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("route", route);
        extras.put("path_parameters", pathParameters);
        extras.put("status", status);
        body.ifPresent(b -> extras.put("change", GovernanceChanges.change(route, b)));
        try {
            audit.record(AuditLog.Entry.by(caller, AuditClass.OTHER, "svc.governance." + route), "ok",
                    Optional.empty(), Optional.empty(), extras);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "governance audit row for " + route + " by " + caller.sub()
                    + " could not be written: " + e.getMessage());
        }
    }
}
