package dev.backplane.cli.topology;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc topology refresh} */
@Command(name = "refresh", description = "Discover a target's edges now through its connector's read operations "
        + "(Kubernetes and Keycloak targets) [tenant_admin]; edges it no longer shows go stale.")
final class Refresh extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<target>") String target;

    @RequestBody
    record Body(String target) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.TOPOLOGY_REFRESH, new Body(target), r -> TopologyCommand.counts(ctx, "refreshed "
                + r.path("target").asText() + ": " + r.path("seen").asInt() + " edges seen;", r.path("result")));
    }
}
