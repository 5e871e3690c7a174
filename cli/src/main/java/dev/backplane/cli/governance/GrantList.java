package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.grant;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc agent grant list} */
@Command(name = "list", description = "Grants (expired ones with --include-expired).")
final class GrantList extends BackplaneCommand {
    @Option(names = "--include-expired") boolean includeExpired;
    @Option(names = "--principal") String principal;
    @Option(names = "--limit", paramLabel = "1..500", description = "default 100") Integer limit;
    @Option(names = "--offset") Integer offset;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.AGENT_GRANTS + QueryString.of().add("include_expired", includeExpired)
                .add("principal", principal).add("limit", limit).add("offset", offset), list -> {
            if (list.isEmpty()) {
                ctx.out().println("no grants");
            }
            list.forEach(g -> grant(ctx, g));
        });
    }
}
