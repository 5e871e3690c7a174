package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.grant;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Option;

/** Shared flags of grant create and elevate. */
abstract class GrantWrite extends BackplaneCommand {
    @Option(names = "--principal", required = true, description = "svc-agent:<name> for an agent principal (binds "
            + "its runs and its own token), or a token's JWT subject (an agent's own token; a user for user-agent)")
    String principal;
    @Option(names = "--op", required = true, description = "fnmatch pattern over op ids, e.g. k8s.pod.*") String op;
    @Option(names = "--verdict", required = true, description = "auto-execute, needs-approval or deny") String verdict;
    @Option(names = "--principal-kind", description = "agent (default) or user-agent") String kind;
    @Option(names = "--target", description = "target uuid or * (default)") String target;
    @Option(names = "--expires", description = "ISO 8601 UTC time") String expires;

    abstract String path();

    /** The body of POST /api/v1/agent-grants and .../elevate. */
    @RequestBody
    record GrantRequest(String principal, String op, String verdict, String principalKind, String target,
            String expires) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", path(), new GrantRequest(principal, op, verdict, kind, target, expires), g -> grant(ctx, g));
    }
}
