package dev.backplane.cli.governance;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Paging;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc agent grant list} */
@Command(name = "list", description = "Grants (expired ones with --include-expired).")
final class GrantList extends BackplaneCommand {
    @Option(names = "--include-expired") boolean includeExpired;
    @Option(names = "--principal") String principal;
    @Mixin Paging paging;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.AGENT_GRANTS + QueryString.of().add("include_expired", includeExpired)
                .add("principal", principal).add(paging), list -> Tables.each(ctx, list, "no grants",
                AgentCommands::grant));
    }
}
