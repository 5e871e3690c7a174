package dev.backplane.cli.agents;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Paging;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code svc agent list} */
@Command(name = "list", description = "Agent definitions of the tenant, by name.")
final class AgentList extends BackplaneCommand {
    @Mixin Paging paging;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.AGENTS + QueryString.of().add(paging), page -> Tables.print(
                ctx, "no agent definitions", List.of("NAME", "STATE", "IDENTITY", "TIER", "TURNS"),
                Tables.rows(page.path("agents"), a -> List.of(a.path("name").asText(),
                        a.path("enabled").asBoolean() ? "enabled" : "disabled", a.path("identity_ref").asText(),
                        a.path("model_tier").asText(), a.path("turn_budget").asText()))));
    }
}
