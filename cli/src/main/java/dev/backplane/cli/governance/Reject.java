package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc approvals reject} */
@Command(name = "reject", description = "Reject a pending request [tenant_admin].")
final class Reject extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<id>") String id;
    @Option(names = "--reason") String reason;

    Reject() {
        super("POST " + ApiPaths.APPROVAL + "/reject", ApprovalsCommand::printOne);
    }

    @Override
    protected Object body() {
        return new Decision(reason, null);
    }
}
