package dev.backplane.cli.targets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code svc targets describe}: the target, then which connector would serve a call to it now and why (the
 * resolver's answer, every connector of its product with its verdict). {@code --json} prints the target with
 * that answer under {@code resolution}.
 */
@Command(name = "describe", description = "Show a target by name or alias, and which connector serves it and why.")
final class Describe extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name-or-alias>") String name;

    @Option(names = "--op", paramLabel = "<op_id>", description = "resolve for this operation (only connectors "
            + "offering it qualify)")
    String opId;

    @Override
    protected void execute(Session s) {
        JsonNode target = s.client().call("GET", ApiPaths.expand(ApiPaths.TARGET, name), null).json();
        JsonNode resolution = s.client().call("GET", ApiPaths.expand(ApiPaths.TARGET_RESOLUTION, name)
                + QueryString.of().add("op_id", opId), null).json();
        ObjectNode out = target.deepCopy();
        out.set("resolution", resolution);
        print(out, () -> {
            TargetsCommand.printTarget(ctx, target);
            printResolution(resolution);
        });
    }

    private void printResolution(JsonNode r) {
        String version = r.path("version").isNull() || r.path("version").isMissingNode() ? "unknown"
                : r.path("version").asText() + " (" + (r.path("version_source").asText().equals("fingerprint")
                ? "probed" : "asserted") + ")";
        ctx.out().printf("%-15s %s%n", "version", version);
        if (r.hasNonNull("connector_id")) {
            ctx.out().printf("%-15s %s (%s)%n", "served by", r.path("connector_id").asText(), r.path("reason").asText());
        } else {
            ctx.out().printf("%-15s none: %s [%s]%n", "served by", r.path("reason").asText(),
                    r.path("error_code").asText());
        }
        if (r.hasNonNull("tenant_preference")) {
            ctx.out().printf("%-15s %s%n", "tenant prefers", r.path("tenant_preference").asText());
        }
        for (JsonNode c : r.path("candidates")) {
            ctx.out().printf("%-15s %s %s: %s%n", "", c.path("serves").asBoolean() ? "+" : "-",
                    c.path("connector_id").asText(), c.path("reason").asText());
        }
    }
}
