package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.topology.EdgeView;
import dev.backplane.kernel.topology.Topology;
import dev.backplane.kernel.topology.TopologyHistory;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /ui/topology}: the tenant's topology graph for operators and above (as the REST reads). The whole graph (its
 * first {@value TopologyView#MAX_EDGES} current edges), a node's dependencies or dependents to a depth, or the shortest
 * path between two nodes, drawn by Cytoscape.js (served from its WebJar) and listed as a table that works without
 * script; conflicting and stale edges are marked in both. {@code /ui/topology/graph.json} is the same view as the
 * drawing reads it.
 */
public final class ConsoleTopologyRoutes implements ConsoleRoutes.PageGroupRoutes {

    private final Topology topology;
    private ConsoleRoutes console;

    public ConsoleTopologyRoutes(Topology topology) {
        this.topology = topology;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/topology", Role.OPERATOR, this::page);
        console.page(routing, Method.GET, "/ui/topology/graph.json", Role.OPERATOR, this::json);
    }

    private void page(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        TopologyQuery q = TopologyQuery.of(name -> req.query().first(name).asOptional());
        TopologyView view;
        String error = null;
        try {
            view = view(s, q);
        } catch (DomainException e) {
            // a node that is not there, or two that share a name, is said beside the form it came from
            view = TopologyView.EMPTY;
            error = e.code() + ": " + e.getMessage();
        }
        console.render(res, Status.OK_200, "topology.jte", new ConsolePages.TopologyPage(s.frame("Topology"), q, view,
                error));
    }

    private void json(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        res.headers().contentType(HttpMediaType.create("application/json"));
        res.send(JsonMapping.write(view(s, TopologyQuery.of(name -> req.query().first(name).asOptional())).drawing()));
    }

    @SuppressWarnings("unchecked")
    private TopologyView view(ConsoleRoutes.Signed s, TopologyQuery q) {
        var tenant = s.caller().tenantId();
        return switch (q.query()) {
            case "dependencies", "dependents" -> TopologyView.ofWalk(topology.traversals().walk(tenant, q.node(),
                    q.query().equals("dependents"), q.depth(), true, List.of(), Optional.empty()));
            case "path" -> TopologyView.ofPath(topology.traversals().path(tenant, q.node(), q.to(), null));
            default -> {
                Map<String, Object> edges = topology.history().edges(tenant, new TopologyHistory.EdgeFilter(
                        q.conflictsOnly(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                        TopologyView.MAX_EDGES, 0));
                yield TopologyView.ofEdges((List<EdgeView>) edges.get("edges"), (Boolean) edges.get("more"));
            }
        };
    }
}
