package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.grant;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import picocli.CommandLine.Command;

/** {@code svc agent grant elevate} */
@Command(name = "elevate", description = "A time-bounded elevation (--expires required) [tenant_admin].")
final class GrantElevate extends GrantWrite {
    @Override
    protected void validate() {
        if (expires == null) {
            throw CliException.usage("grant elevate needs --expires");
        }
    }

    String path() {
        return ApiPaths.AGENT_GRANTS + "/elevate";
    }
}
