package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc approvals show} */
@Command(name = "show", description = "One request with the resolved call.")
final class ApprovalShow extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<id>") String id;

    ApprovalShow() {
        super("GET " + ApiPaths.APPROVAL, ApprovalsCommand::printOne);
    }
}
