package dev.backplane.cli.targets;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc targets discover} */
@Command(name = "discover", description = "Find further targets of a product through a seed target's connector.")
final class Discover extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<product>") String product;

    @Option(names = "--seed-target", paramLabel = "<name>", description = "registered target to discover from")

    String seed;

    /** The body of POST /api/v1/targets/discover. */
    @RequestBody
    record Discovery(String product, String seedTarget) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.TARGETS_DISCOVER, new Discovery(product, seed), r -> {
            List<List<String>> rows = Tables.rows(r.path("candidates"), c -> List.of(c.path("name").asText(),
                    c.path("product").asText(), c.path("host").asText()));
            ctx.out().println(rows.size() + " candidate(s) via " + r.path("connector_id").asText()
                    + " (nothing registered; add them with svc targets add or import)");
            if (!rows.isEmpty()) {
                Tables.print(ctx.out(), List.of("NAME", "PRODUCT", "HOST"), rows);
            }
        });
    }
}
