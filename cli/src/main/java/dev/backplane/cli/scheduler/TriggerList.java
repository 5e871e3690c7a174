package dev.backplane.cli.scheduler;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc scheduler list} */
@Command(name = "list", description = "The tenant's triggers.")
final class TriggerList extends BackplaneCommand {
    @Option(names = "--limit", paramLabel = "1..500", description = "default 100") Integer limit;
    @Option(names = "--offset") Integer offset;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.TRIGGERS + QueryString.of().add("limit", limit).add("offset", offset),
                page -> Tables.each(ctx, page.path("triggers"), "no triggers", SchedulerCommand::print));
    }
}
