package dev.backplane.cli.tenants;

import static dev.backplane.cli.tenants.ApprovalNotificationsCommand.PATH;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import picocli.CommandLine.Command;

/** {@code svc tenants approval-notifications clear} [tenant_admin] */
@Command(name = "clear", description = "Remove the settings: nothing is sent any more (tenant_admin).")
final class ApprovalNotificationsClear extends BackplaneCommand {
    @Override
    protected void execute(Session s) {
        send(s, "DELETE", PATH, null, ApprovalNotificationsCommand::print);
    }
}
