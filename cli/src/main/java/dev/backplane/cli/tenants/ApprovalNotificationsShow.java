package dev.backplane.cli.tenants;

import static dev.backplane.cli.tenants.ApprovalNotificationsCommand.PATH;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import picocli.CommandLine.Command;

/** {@code svc tenants approval-notifications show} [tenant_admin] */
@Command(name = "show", description = "Show the settings (tenant_admin: a chat webhook's URL carries its token).")
final class ApprovalNotificationsShow extends BackplaneCommand {
    @Override
    protected void execute(Session s) {
        get(s, PATH, settings -> ApprovalNotificationsCommand.print(ctx, settings));
    }
}
