package dev.backplane.cli.connectors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc operation groups} */
@Command(name = "groups", description = "A connector's operation groups.")
final class Groups extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<connector_id>") String id;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.CONNECTOR_GROUPS, id), groups -> {
            List<List<String>> rows = Tables.rows(groups, g -> List.of(g.path("group_key").asText(),
                    g.path("display_name").asText(),
                        g.path("enabled_op_count").asInt() + "/" + g.path("operation_count").asInt()
                                + (g.path("partial").asBoolean() ? " partial" : ""), g.path("when_to_use").asText()));
            Tables.print(ctx.out(), List.of("GROUP", "NAME", "ENABLED", "WHEN TO USE"), rows);
        });
    }
}
