package dev.backplane.cli.targets;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code svc targets discover}: prints a plan, a targets.yaml that {@code svc targets import} takes as it is
 * (the members not importable as they are follow as comments, each with its reason). Nothing is registered.
 */
@Command(name = "discover", description = "Find further targets of a product through a seed target's connector; "
        + "prints a targets.yaml plan for svc targets import (nothing is registered).")
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
        send(s, "POST", ApiPaths.TARGETS_DISCOVER, new Discovery(product, seed),
                r -> ctx.out().print(DiscoveryPlanYaml.render(r, product, seed)));
    }
}
