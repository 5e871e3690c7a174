package dev.backplane.kernel.governance;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;
import java.util.UUID;

/** REST surface of agent principals and agent grants. */
public record GovernanceRoutes(AgentPrincipals principals, Grants grants, ServiceGrants serviceGrants) {

    /** Body of register. */
    record Register(String name, Optional<String> ownerSub) {
        Register {
            ownerSub = ownerSub == null ? Optional.empty() : ownerSub;
        }
    }

    /** Body of a grant create or elevate. */
    record GrantRequest(String principal, Optional<String> principalKind, String op, Optional<String> target,
                        String verdict, Optional<String> expires) {
        GrantRequest {
            principalKind = principalKind == null ? Optional.empty() : principalKind;
            target = target == null ? Optional.empty() : target;
            expires = expires == null ? Optional.empty() : expires;
        }
    }

    /** Body of a service grant. */
    record ServiceGrantRequest(String principal, String connectorId, String opId, String reason, Optional<String> target,
                               Optional<String> targetNamePattern, Optional<String> targetProduct,
                               Optional<String> expires) {
        ServiceGrantRequest {
            target = target == null ? Optional.empty() : target;
            targetNamePattern = targetNamePattern == null ? Optional.empty() : targetNamePattern;
            targetProduct = targetProduct == null ? Optional.empty() : targetProduct;
            expires = expires == null ? Optional.empty() : expires;
        }
    }

    public void register(ApiRoutes api) {
        api.post("/api/v1/agent-principals", Role.TENANT_ADMIN, (req, res, c) -> {
            Register body = Json.read(req, Register.class);
            Json.send(res, io.helidon.http.Status.CREATED_201, principals.register(c, body.name(), body.ownerSub()));
        })
                .get("/api/v1/agent-principals", Role.OPERATOR, (req, res, c) -> Json.ok(res, principals.list(c.tenantId(),
                        QueryParams.flag(req, "include_revoked"))))
                .post("/api/v1/agent-principals/{name}/revoke", Role.OPERATOR, (req, res, c) -> Json.ok(res,
                        principals.revoke(c, req.path().pathParameters().get("name"))))
                .post("/api/v1/agent-grants", Role.TENANT_ADMIN, (req, res, c) -> grant(req, res, c, false))
                .post("/api/v1/agent-grants/elevate", Role.TENANT_ADMIN, (req, res, c) -> grant(req, res, c, true))
                .get("/api/v1/agent-grants", Role.OPERATOR, this::list)
                .get("/api/v1/agent-grants/{id}", Role.OPERATOR, (req, res, c) -> Json.ok(res,
                        grants.show(c.tenantId(), grantId(req))))
                .post("/api/v1/agent-grants/{id}/revoke", Role.TENANT_ADMIN, (req, res, c) -> {
                    c.requireHuman("revoking a grant");
                    Json.ok(res, grants.revoke(c.tenantId(), grantId(req)));
                })
                .post("/api/v1/service-principals/grants", Role.TENANT_ADMIN, (req, res, c) -> {
                    c.requireHuman("granting a service principal");
                    ServiceGrantRequest g = Json.read(req, ServiceGrantRequest.class);
                    Json.send(res, io.helidon.http.Status.CREATED_201, serviceGrants.create(c.tenantId(), c.sub(),
                            g.principal(), g.connectorId(), g.opId(), g.reason(), g.target(), g.targetNamePattern(),
                            g.targetProduct(), g.expires()));
                })
                .get("/api/v1/service-principals/grants", Role.OPERATOR, (req, res, c) -> Json.ok(res,
                        serviceGrants.list(c.tenantId(), req.query().first("principal").asOptional(),
                                QueryParams.flag(req, "include_expired"), QueryParams.flag(req, "include_revoked"))))
                .get("/api/v1/service-principals/grants/{id}", Role.OPERATOR, (req, res, c) -> Json.ok(res,
                        serviceGrants.show(c.tenantId(), serviceGrantId(req))))
                .post("/api/v1/service-principals/grants/{id}/revoke", Role.TENANT_ADMIN, (req, res, c) -> {
                    c.requireHuman("revoking a service grant");
                    Json.ok(res, serviceGrants.revoke(c.tenantId(), serviceGrantId(req)));
                });
    }

    private static UUID grantId(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", Grants::notFound);
    }

    private static UUID serviceGrantId(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", ServiceGrants::notFound);
    }

    private void grant(ServerRequest req, ServerResponse res, Caller caller, boolean elevation) {
        caller.requireHuman(elevation ? "elevating an agent" : "granting an agent");
        GrantRequest g = Json.read(req, GrantRequest.class);
        Json.send(res, io.helidon.http.Status.CREATED_201, grants.create(caller.tenantId(), caller.sub(), g.principal(),
                g.principalKind(), g.op(), g.target(), g.verdict(), g.expires(), elevation));
    }

    private void list(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, grants.list(caller.tenantId(), req.query().first("principal").asOptional(),
                QueryParams.flag(req, "include_expired"), QueryParams.flag(req, "include_revoked"), QueryParams.integer(req, "limit", 100),
                QueryParams.integer(req, "offset", 0)));
    }
}
