package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.ApprovalsCommand.printOne;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc approvals reject} */
@Command(name = "reject", description = "Reject a pending request [tenant_admin].")
final class Reject extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<id>") String id;
    @Option(names = "--reason") String reason;

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.APPROVAL, id) + "/reject", new Decision(reason, null),
                a -> printOne(ctx, a));
    }
}
