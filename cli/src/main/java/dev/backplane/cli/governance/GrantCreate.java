package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.grant;

import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;

/** {@code svc agent grant create} */
@Command(name = "create", description = "Create a grant [tenant_admin].")
final class GrantCreate extends GrantWrite {
    String path() {
        return ApiPaths.AGENT_GRANTS;
    }
}
