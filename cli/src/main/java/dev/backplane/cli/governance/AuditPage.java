package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AuditCommand.table;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.Limits;

/** my-recent, recent and query: a page of audit rows, --limit checked (1..1000) before anything is sent. */
abstract class AuditPage extends BackplaneCommand {

    abstract Integer limit();

    /** The route with its query string. */
    abstract String path();

    @Override
    protected void validate() {
        Limits.check(limit(), 1, 1000, "--limit");
    }

    @Override
    protected void execute(Session s) {
        get(s, path(), page -> table(ctx, page));
    }
}
