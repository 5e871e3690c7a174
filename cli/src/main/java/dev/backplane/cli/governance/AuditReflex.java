package dev.backplane.cli.governance;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc audit reflex} */
@Command(name = "reflex", description = "Summary of governed activity in a window [tenant_admin; --tenant: platform_admin].")
final class AuditReflex extends BackplaneCommand {
    @Option(names = "--since", description = "default 24h") String since;
    @Option(names = "--until") String until;

    @Override
    protected void execute(Session s) {
        QueryString q = QueryString.of().add("since", since).add("until", until);
        get(s, ApiPaths.AUDIT_REFLEX + q, r -> {
            ctx.out().println("window   " + r.path("since").asText() + " .. " + r.path("until").asText());
            ctx.out().println("outcomes " + r.path("outcomes"));
            ctx.out().println("approvals " + r.path("approvals"));
            ctx.out().println("denials  " + r.path("denials"));
            ctx.out().println("top ops  " + r.path("top_operations"));
            ctx.out().println("top principals " + r.path("top_principals"));
        });
    }
}
