package dev.backplane.kernel.agents;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import java.util.Map;

/**
 * REST of agents: definitions under {@code /api/v1/agents} (reads operator, writes tenant_admin) and
 * runs under {@code /api/v1/agents/{name}/runs} and {@code /api/v1/agent-runs} (operator).
 */
public final class AgentRoutes {

    static final String AGENTS = "/api/v1/agents";
    static final String AGENT = AGENTS + "/{name}";
    static final String RUNS = "/api/v1/agent-runs";
    static final String RUN = RUNS + "/{handle}";

    private final AgentDefinitions definitions;
    private final AgentRuns runs;

    public AgentRoutes(AgentDefinitions definitions, AgentRuns runs) {
        this.definitions = definitions;
        this.runs = runs;
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
                })
                .post(AGENT + "/runs", Role.OPERATOR, (req, res, c) -> {
                    AgentRuns.Start start = Json.read(req, AgentRuns.Start.class);
                    AgentRun run = runs.start(c, name(req), start);
                    Json.send(res, Boolean.TRUE.equals(start.async()) ? Status.ACCEPTED_202 : Status.OK_200, run);
                })
                .post(AGENT + "/run-events", Role.OPERATOR, this::runEvents)
                .get(RUNS, Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("runs", runs.list(c.tenantId(),
                        req.query().first("agent_name").asOptional(), req.query().first("status").asOptional(),
                        req.query().first("work_ref").asOptional(), QueryParams.integer(req, "limit", AgentRuns.LIMIT_DEFAULT),
                        QueryParams.integer(req, "offset", 0)))))
                .get(RUN, Role.OPERATOR, (req, res, c) -> Json.ok(res, runs.show(c.tenantId(), handle(req))))
                .post(RUN + "/cancel", Role.OPERATOR, (req, res, c) -> Json.ok(res, runs.cancel(c, handle(req))))
                .get(RUN + "/events", Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("events",
                        runs.events(c.tenantId(), handle(req)))));
    }

    /** Starts a run in the background and streams its events as server-sent events until it finishes. */
    private void runEvents(ServerRequest req, io.helidon.webserver.http.ServerResponse res,
                           dev.backplane.kernel.identity.Caller c) {
        AgentRuns.Start body = Json.read(req, AgentRuns.Start.class);
        AgentRun run = runs.start(c, name(req), new AgentRuns.Start(body.input(), true, body.workRef()));
        res.header(io.helidon.http.HeaderNames.CONTENT_TYPE, "text/event-stream");
        res.header(io.helidon.http.HeaderNames.CACHE_CONTROL, "no-cache");
        res.header("X-Svc-Run-Handle", run.handle().toString());
        try (java.io.OutputStream out = res.outputStream()) {
            RunEventStream.stream(runs, c, run.handle(), out);
        } catch (java.io.IOException gone) {
            // the client went away: the run goes on (svc agent run-status shows it)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static java.util.UUID handle(ServerRequest req) {
        return QueryParams.uuidPath(req, "handle", v -> AgentRunErrors.RUN_NOT_FOUND.error("no agent run " + v
                + " in this tenant"));
    }

    private static String name(ServerRequest req) {
        return req.path().pathParameters().get("name");
    }
}
