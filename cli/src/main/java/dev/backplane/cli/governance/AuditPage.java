package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AuditCommand.table;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;

/** my-recent, recent and query: a page of audit rows, each with --limit 1..1000. */
abstract class AuditPage extends BackplaneCommand {

    /** The route with its query string. */
    abstract String path();

    @Override
    protected void execute(Session s) {
        get(s, path(), page -> table(ctx, page));
    }
}
