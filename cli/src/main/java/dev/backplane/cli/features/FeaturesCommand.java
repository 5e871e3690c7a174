package dev.backplane.cli.features;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;

/**
 * {@code svc features}: the backplane's feature-maturity index — each capability's maturity (GA, Beta,
 * experimental) and the boundaries between surfaces that may move. The labels on other commands ("(Beta)" on
 * {@code svc scheduler}, "(experimental)" on {@code svc docs}) agree with it; the kernel's tests hold them to it.
 */
@Command(name = "features", description = "Feature maturity: each capability's maturity (GA, Beta, experimental) "
        + "and the boundaries that may move.")
public final class FeaturesCommand extends BackplaneCommand {

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.FEATURES, index -> {
            Tables.print(ctx, List.of("FEATURE", "MATURITY", "WHAT", "NOTE"),
                    Tables.rows(index.path("features"), f -> List.of(f.path("key").asText(), label(f),
                            f.path("title").asText(), f.path("note").asText())));
            ctx.out().println();
            ctx.out().println("* SPEC names no maturity for these; outside the 1.0 promise, which covers the GA ones.");
            ctx.out().println();
            ctx.out().println("Boundaries (may move):");
            index.path("boundaries").forEach(b -> ctx.out().println("  " + b.path("key").asText() + ": "
                    + b.path("rule").asText()));
        });
    }

    private static String label(JsonNode f) {
        return f.path("maturity").asText() + (f.path("spec_labelled").asBoolean() ? "" : "*");
    }
}
