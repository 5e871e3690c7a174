package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc agent grant revoke} */
@Command(name = "revoke", description = "Revoke a grant [tenant_admin].")
final class GrantRevoke extends GrantRevocation {
    @Parameters(index = "0", paramLabel = "<grant-id>") String id;

    GrantRevoke() {
        super(ApiPaths.AGENT_GRANTS + "/{id}/revoke", AgentCommands::grant);
    }
}
