package dev.backplane.kernel.agents;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import java.util.Map;

/** REST of agent definitions: {@code /api/v1/agents}; reads operator, writes tenant_admin. */
public final class AgentRoutes {

    static final String AGENTS = "/api/v1/agents";
    static final String AGENT = AGENTS + "/{name}";

    private final AgentDefinitions definitions;

    public AgentRoutes(AgentDefinitions definitions) {
        this.definitions = definitions;
    }

    public void register(ApiRoutes api) {
        api.get(AGENTS, Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("agents", definitions.list(c.tenantId(),
                        QueryParams.integer(req, "limit", AgentDefinitions.LIMIT_DEFAULT),
                        QueryParams.integer(req, "offset", 0)))))
                .post(AGENTS, Role.TENANT_ADMIN, (req, res, c) -> Json.send(res, Status.CREATED_201,
                        definitions.create(c, Json.read(req, AgentDefinitions.Write.class))))
                .get(AGENT, Role.OPERATOR, (req, res, c) -> Json.ok(res, definitions.show(c.tenantId(), name(req))))
                .patch(AGENT, Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res,
                        definitions.edit(c, name(req), Json.read(req, AgentDefinitions.Write.class))))
                .delete(AGENT, Role.TENANT_ADMIN, (req, res, c) -> {
                    definitions.delete(c, name(req));
                    Json.ok(res, Map.of("deleted", name(req)));
                });
    }

    private static String name(ServerRequest req) {
        return req.path().pathParameters().get("name");
    }
}
