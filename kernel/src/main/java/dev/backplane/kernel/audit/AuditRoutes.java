package dev.backplane.kernel.audit;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * REST surface of the audit log. Every read of the log is itself audited (op_class audit_query, op_id
 * {@code svc.audit.<read>}): query, my-recent, reflex, replay, show and who-touched. The row is written after
 * the read succeeds, so a refused read writes nothing and a my-recent read does not list itself.
 *
 * @param targetName resolves a target name or alias to its name for the caller (unknown names pass through)
 */
public record AuditRoutes(AuditQueries queries, AuditLog log, Function<Caller, Function<String, String>> targetName) {

    public void register(ApiRoutes api) {
        api.get("/api/v1/audit", Role.OPERATOR, this::query)
                .get("/api/v1/audit/mine", Role.READ_ONLY, this::mine)
                .get("/api/v1/audit/reflex", Role.TENANT_ADMIN, this::reflex)
                .get("/api/v1/audit/sessions/{session_id}", Role.OPERATOR, (req, res, c) -> {
                    UUID session = QueryParams.uuidPath(req, "session_id", AuditQueries::invalidSession);
                    var replay = queries.replay(c.tenantId(), session, QueryParams.integer(req, "max_depth", 20));
                    audited(c, "svc.audit.replay", Map.of("session_id", session.toString()));
                    Json.ok(res, replay);
                })
                .get("/api/v1/audit/who-touched/{target}", Role.OPERATOR, (req, res, c) -> {
                    String target = targetName.apply(c).apply(req.path().pathParameters().get("target"));
                    var touched = queries.whoTouched(c.tenantId(), target);
                    // the target named in extras, not the row's target column: reading the log touches no target
                    // (who-touched must not list its own readers)
                    audited(c, "svc.audit.who_touched", Map.of("target", target));
                    Json.ok(res, touched);
                })
                .get("/api/v1/audit/{audit_id}", Role.OPERATOR, (req, res, c) -> {
                    UUID id = QueryParams.uuidPath(req, "audit_id", AuditQueries::notFound);
                    var row = queries.show(c.tenantId(), id);
                    audited(c, "svc.audit.show", Map.of("audit_id", id.toString()));
                    Json.ok(res, row);
                });
    }

    private void query(ServerRequest req, ServerResponse res, Caller caller) {
        AuditQueries.Filter f = new AuditQueries.Filter(uuid(req, "audit_id"), q(req, "op_class"), q(req, "op_id"),
                uuid(req, "parent_audit_id"), q(req, "principal"), q(req, "result_status"), uuid(req, "session_id"),
                q(req, "since"), q(req, "until"), q(req, "target").map(t -> targetName.apply(caller).apply(t)),
                q(req, "work_ref"), Optional.empty());
        AuditQueries.Page page = queries.query(caller.tenantId(), f, q(req, "cursor"), QueryParams.integer(req, "limit", 100));
        audited(caller, "svc.audit.query", Map.of());
        Json.ok(res, page);
    }

    private void mine(ServerRequest req, ServerResponse res, Caller caller) {
        // SPEC: audit reads default to 100 rows (1..1000)
        AuditQueries.Page page = queries.query(caller.tenantId(), AuditQueries.Filter.mine(caller.sub(), q(req, "since")),
                q(req, "cursor"), QueryParams.integer(req, "limit", 100));
        audited(caller, "svc.audit.mine", Map.of());
        Json.ok(res, page);
    }

    private void reflex(ServerRequest req, ServerResponse res, Caller caller) {
        Map<String, Object> summary = queries.reflex(caller.tenantId(), q(req, "since"), q(req, "until"));
        audited(caller, "svc.audit.reflex", Map.of());
        Json.ok(res, summary);
    }

    private void audited(Caller caller, String opId, Map<String, Object> extras) {
        log.record(AuditLog.Entry.by(caller, AuditClass.AUDIT_QUERY, opId), "ok", Optional.empty(), Optional.empty(), extras);
    }

    private static Optional<String> q(ServerRequest req, String name) {
        return req.query().first(name).asOptional().filter(v -> !v.isBlank());
    }

    private static Optional<UUID> uuid(ServerRequest req, String name) {
        return q(req, name).map(v -> {
            try {
                return UUID.fromString(v);
            } catch (IllegalArgumentException e) {
                throw AuditErrors.INVALID_FILTER.error(name + " must be a uuid", Map.of("field", name));
            }
        });
    }
}
