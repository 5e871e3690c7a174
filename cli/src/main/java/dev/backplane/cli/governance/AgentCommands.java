package dev.backplane.cli.governance;

import dev.backplane.cli.common.RequestBody;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.ConfirmOption;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc agent-principal ...} and {@code svc agent grant ...}. */
public final class AgentCommands {

    private AgentCommands() {
    }

    /** svc agent-principal */
    @Command(name = "agent-principal", description = "Agent principals and the kill switch.",
            subcommands = {PrincipalList.class, PrincipalRegister.class, PrincipalRevoke.class})
    public static final class AgentPrincipalCommand {
    }

    /** svc agent (grant verbs; agent definitions come with the agents capability) */
    @Command(name = "agent", description = "Agents: grants that bound what they may do.", subcommands = {GrantCommand.class})
    public static final class AgentCommand {
    }

    /** svc agent grant */
    @Command(name = "grant", description = "Grants for agents and user-agents.",
            subcommands = {GrantCreate.class, GrantElevate.class, GrantList.class, GrantRevoke.class, GrantShow.class})
    static final class GrantCommand {
    }

    static void principals(CliContext ctx, JsonNode list) {
        List<List<String>> rows = Tables.rows(list, p -> List.of(p.path("name").asText(), p.path("owner_sub").asText(),
                    p.path("revoked").asBoolean() ? "REVOKED " + p.path("revoked_at").asText() : "active"));
        Tables.print(ctx.out(), "no agent principals", List.of("NAME", "OWNER", "STATE"), rows);
    }

    static void grant(CliContext ctx, JsonNode g) {
        ctx.out().println(g.path("id").asText() + "  " + g.path("verdict").asText() + "  " + g.path("op").asText()
                + " on " + g.path("target").asText() + "  for " + g.path("principal_kind").asText() + " "
                + g.path("principal").asText() + (g.path("expires").isNull() ? "" : "  until " + g.path("expires").asText())
                + (g.path("elevation").asBoolean() ? "  [elevation]" : "") + (g.path("revoked").asBoolean() ? "  [REVOKED]" : ""));
    }

    /** agent-principal list */
    @Command(name = "list", description = "Agent principals.")
    static final class PrincipalList extends BackplaneCommand {
        @Option(names = "--include-revoked")
        boolean includeRevoked;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.AGENT_PRINCIPALS + (includeRevoked ? "?include_revoked=true" : ""), list -> principals(ctx, list));
        }
    }

    /** agent-principal register */
    @Command(name = "register", description = "Register an agent principal; its name is the agent's OIDC client id [tenant_admin].")
    static final class PrincipalRegister extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<name>")
        String name;
        @Option(names = "--owner-sub", description = "who may pull the kill switch besides tenant admins (default: you)")
        String ownerSub;

        /** The body of POST /api/v1/agent-principals. */
        @RequestBody
        record Registration(String name, String ownerSub) {
        }

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.AGENT_PRINCIPALS, new Registration(name, ownerSub), p -> ctx.out().println("registered agent principal " + p.path("name").asText() + " (owner "
                    + p.path("owner_sub").asText() + ")"));
        }
    }

    /** agent-principal revoke */
    @Command(name = "revoke", description = "Kill switch: refuse everything the agent asks, from its next request.")
    static final class PrincipalRevoke extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<name>")
        String name;

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.expand(ApiPaths.AGENT_PRINCIPALS + "/{name}/revoke", name), null, p -> ctx.out().println("revoked agent principal " + p.path("name").asText()));
        }
    }

    /** Shared flags of grant create and elevate. */
    abstract static class GrantWrite extends BackplaneCommand {
        @Option(names = "--principal", required = true, description = "the JWT subject of the agent or user")
        String principal;
        @Option(names = "--op", required = true, description = "fnmatch pattern over op ids, e.g. k8s.pod.*")
        String op;
        @Option(names = "--verdict", required = true, description = "auto-execute, needs-approval or deny")
        String verdict;
        @Option(names = "--principal-kind", description = "agent (default) or user-agent")
        String kind;
        @Option(names = "--target", description = "target uuid or * (default)")
        String target;
        @Option(names = "--expires", description = "ISO 8601 UTC time")
        String expires;

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

    /** grant create */
    @Command(name = "create", description = "Create a grant [tenant_admin].")
    static final class GrantCreate extends GrantWrite {
        String path() {
            return ApiPaths.AGENT_GRANTS;
        }
    }

    /** grant elevate */
    @Command(name = "elevate", description = "A time-bounded elevation (--expires required) [tenant_admin].")
    static final class GrantElevate extends GrantWrite {
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

    /** grant list */
    @Command(name = "list", description = "Grants (expired ones with --include-expired).")
    static final class GrantList extends BackplaneCommand {
        @Option(names = "--include-expired")
        boolean includeExpired;
        @Option(names = "--principal")
        String principal;
        @Option(names = "--limit", description = "1..500, default 100")
        Integer limit;
        @Option(names = "--offset")
        Integer offset;

        @Override
        protected void validate() {
            Limits.check(limit, 1, 500, "--limit");
        }

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.AGENT_GRANTS + QueryString.of().add("include_expired", includeExpired)
                    .add("principal", principal).add("limit", limit).add("offset", offset), list -> {
                if (list.isEmpty()) {
                    ctx.out().println("no grants");
                }
                list.forEach(g -> grant(ctx, g));
            });
        }
    }

    /** grant revoke */
    @Command(name = "revoke", description = "Revoke a grant [tenant_admin].")
    static final class GrantRevoke extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<grant-id>")
        String id;
        @Mixin
        ConfirmOption confirm;

        @Override
        protected void validate() {
            confirm.require("revoke " + id);
        }

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.expand(ApiPaths.AGENT_GRANTS + "/{id}/revoke", id), null, g -> grant(ctx, g));
        }
    }

    /** grant show */
    @Command(name = "show", description = "One grant.")
    static final class GrantShow extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<grant-id>")
        String id;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.AGENT_GRANTS + "/{id}", id), g -> grant(ctx, g));
        }
    }
}
