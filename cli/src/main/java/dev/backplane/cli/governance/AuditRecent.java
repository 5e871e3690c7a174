package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AuditCommand.checkLimit;
import static dev.backplane.cli.governance.AuditCommand.table;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** recent */
@Command(name = "recent", description = "The tenant's recent dispatches.")
final class AuditRecent extends BackplaneCommand {
    @Option(names = "--limit")
    Integer limit;

    @Override
    protected void validate() {
        checkLimit(limit);
    }

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.AUDIT + QueryString.of().add("limit", limit), page -> table(ctx, page));
    }
}
