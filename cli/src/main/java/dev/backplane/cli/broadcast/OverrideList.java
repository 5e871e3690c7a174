package dev.backplane.cli.broadcast;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc broadcast overrides list} */
@Command(name = "list", description = "The tenant's overrides.")
final class OverrideList extends BackplaneCommand {
    @Option(names = "--op-id-pattern", description = "only the override with exactly this pattern") String pattern;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.BROADCAST_OVERRIDES + QueryString.of().add("op_id_pattern", pattern), page ->
                Tables.print(ctx, "no overrides", OverridesCommand.HEADER, Tables.rows(page.path("overrides"),
                        OverridesCommand::row)));
    }
}
