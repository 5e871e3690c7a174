package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.grant;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code svc agent grant revoke} */
@Command(name = "revoke", description = "Revoke a grant [tenant_admin].")
final class GrantRevoke extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<grant-id>") String id;
    @Mixin ConfirmOption confirm;

    @Override
    protected void validate() {
        confirm.require("revoke " + id);
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.AGENT_GRANTS + "/{id}/revoke", id), null, g -> grant(ctx, g));
    }
}
