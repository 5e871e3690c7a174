package dev.backplane.kernel.console;

import dev.backplane.kernel.agents.AgentRun;
import dev.backplane.kernel.agents.AgentRuns;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.runbooks.RunbookRuns;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code /ui/runs}: agent runs and runbook runs of the tenant for operators and above (as their REST lists). An agent
 * run's page shows its status, who started it, its turns, output or error, the approval it waits on, its events as
 * they happen (live) and its audit session; a run that has not finished can be cancelled with the API's rule
 * ({@link AgentRuns#cancel}). A runbook run's page shows its steps' log as {@link RunbookRuns#show} lets the viewer see
 * it (a step's result only to whoever ran it).
 */
public final class ConsoleRunRoutes implements ConsoleRoutes.PageGroupRoutes {

    /** Runs of each kind the list shows. */
    static final int LIST = 25;

    private final AgentRuns agentRuns;
    private final RunbookRuns runbookRuns;
    private ConsoleRoutes console;

    public ConsoleRunRoutes(AgentRuns agentRuns, RunbookRuns runbookRuns) {
        this.agentRuns = agentRuns;
        this.runbookRuns = runbookRuns;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/runs", Role.OPERATOR, this::list);
        console.page(routing, Method.GET, "/ui/runs/agent/{handle}", Role.OPERATOR, (req, res, s, f) ->
                agentRun(res, s, handle(req), null));
        console.page(routing, Method.POST, "/ui/runs/agent/{handle}/cancel", Role.OPERATOR, (req, res, s, f) -> {
            AgentRun run = agentRuns.cancel(s.caller(), handle(req));
            agentRun(res, s, run.handle(), "Cancel requested: a pending run stops at once, a running one at its next "
                    + "turn or tool call.");
        });
        console.page(routing, Method.GET, "/ui/runs/runbook/{id}", Role.OPERATOR, (req, res, s, f) ->
                console.render(res, Status.OK_200, "runbookRun.jte", new ConsolePages.RunbookRunPage(
                        s.frame("Runbook run"), runbookRuns.show(s.caller(), id(req, "id")))));
    }

    private void list(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        UUID tenant = s.caller().tenantId();
        console.render(res, Status.OK_200, "runs.jte", new ConsolePages.RunsPage(s.frame("Runs"),
                agentRuns.list(tenant, Optional.empty(), Optional.empty(), Optional.empty(), LIST, 0),
                runbookRuns.list(tenant, Optional.empty(), Optional.empty(), LIST, 0)));
    }

    private void agentRun(ServerResponse res, ConsoleRoutes.Signed s, UUID handle, String notice) {
        AgentRun run = agentRuns.show(s.caller().tenantId(), handle);
        List<AgentRuns.Event> events = agentRuns.events(s.caller().tenantId(), handle);
        console.render(res, Status.OK_200, "agentRun.jte", new ConsolePages.AgentRunPage(s.frame("Run "
                + handle.toString().substring(0, 8)), run, run.output().map(ConsoleText::pretty).orElse(null),
                events.stream().map(e -> new ConsolePages.RunEvent(e.seq(), e.kind(), e.occurredAt(),
                        ConsoleText.pretty(e.payload()))).toList(), notice));
    }

    private static UUID handle(ServerRequest req) {
        return id(req, "handle");
    }

    private static UUID id(ServerRequest req, String name) {
        return QueryParams.uuidPath(req, name, text -> name.equals("handle")
                ? dev.backplane.kernel.agents.AgentRunErrors.RUN_NOT_FOUND.error("no agent run " + text + " in this tenant")
                : dev.backplane.kernel.runbooks.RunbookErrors.RUN_NOT_FOUND.error("no runbook run " + text
                        + " in this tenant"));
    }
}
