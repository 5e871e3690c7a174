package dev.backplane.cli.tenants;

import static dev.backplane.cli.tenants.MailRecipientPolicyCommand.PATH;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import picocli.CommandLine.Command;

/** {@code svc tenants mail-recipient-policy show} */
@Command(name = "show", description = "Show the policy.")
final class MailRecipientPolicyShow extends BackplaneCommand {
    @Override
    protected void execute(Session s) {
        get(s, PATH, policy -> MailRecipientPolicyCommand.print(ctx, policy));
    }
}
