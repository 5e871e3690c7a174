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
public record AgentRoutes(AgentDefinitions definitions, AgentRuns runs) {

    static final String AGENTS = "/api/v1/agents";
    static final String RUNS = "/api/v1/agent-runs";

    public void register(ApiRoutes api) {
        String agent = api.collection(AGENTS, "name", Role.OPERATOR, Role.TENANT_ADMIN)
                .list("agents", AgentDefinitions.PAGE.fallback(), (req, c, page) -> definitions.list(c.tenantId(),
                        page.limit(), page.offset()))
                .create(AgentDefinitions.Write.class, definitions::create)
                .show((c, name) -> definitions.show(c.tenantId(), name))
                .update(AgentDefinitions.Write.class, definitions::edit)
                .delete(definitions::delete)
                .member();
        // a run acts as the definition's principal: agents may not start one (review 3, S2)
        api.post(agent + "/runs", Role.OPERATOR, ApiRoutes.Callers.NO_AGENTS, (req, res, c) -> {
            AgentRuns.Start start = Json.read(req, AgentRuns.Start.class);
            AgentRun run = runs.start(c, name(req), start);
            Json.send(res, Boolean.TRUE.equals(start.async()) ? Status.ACCEPTED_202 : Status.OK_200, run);
        }).post(agent + "/run-events", Role.OPERATOR, ApiRoutes.Callers.NO_AGENTS, this::runEvents);
        String run = api.collection(RUNS, "handle", AgentRoutes::handle, Role.OPERATOR, Role.OPERATOR)
                .list("runs", AgentRuns.PAGE.fallback(), (req, c, page) -> runs.list(c.tenantId(),
                        req.query().first("agent_name").asOptional(), req.query().first("status").asOptional(),
                        req.query().first("work_ref").asOptional(), page.limit(), page.offset()))
                .show((c, handle) -> runs.show(c.tenantId(), handle))
                .action("cancel", runs::cancel)
                .member();
        api.get(run + "/events", Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("events",
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
