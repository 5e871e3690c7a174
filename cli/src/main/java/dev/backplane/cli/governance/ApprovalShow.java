package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.ApprovalsCommand.printOne;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc approvals show} */
@Command(name = "show", description = "One request with the resolved call.")
final class ApprovalShow extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<id>") String id;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.APPROVAL, id), a -> printOne(ctx, a));
    }
}
