package dev.backplane.cli.targets;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc targets probe} */
@Command(name = "probe", description = "Probe a target live through its connector and store the fingerprint.")
final class Probe extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name-or-alias>") String name;

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.TARGET_PROBE, name), null, r -> {
            JsonNode f = r.path("fingerprint");
            ctx.out().println(r.path("target").asText() + " via " + r.path("connector_id").asText() + ": "
                    + (f.path("reachable").asBoolean() ? "reachable" : "NOT reachable")
                    + (f.has("error_code") ? " (" + f.path("error_code").asText() + ": " + f.path("reason").asText() + ")" : ""));
            for (String k : List.of("vendor", "product", "version", "probe_method", "probed_at", "exception_message")) {
                if (f.has(k)) {
                    ctx.out().printf("  %-17s %s%n", k, f.path(k).asText());
                }
            }
        });
    }
}
