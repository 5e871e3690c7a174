package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AuditCommand.checkLimit;
import static dev.backplane.cli.governance.AuditCommand.table;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** my-recent */
@Command(name = "my-recent", description = "Your own recent dispatches.")
final class AuditMyRecent extends BackplaneCommand {
    @Option(names = "--since")
    String since;
    @Option(names = "--limit")
    Integer limit;

    @Override
    protected void validate() {
        checkLimit(limit);
    }

    @Override
    protected void execute(Session s) {
        QueryString q = QueryString.of().add("since", since).add("limit", limit);
        get(s, ApiPaths.AUDIT_MINE + q, page -> table(ctx, page));
    }
}
