package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc operation ...}: find operations of a connector. */
@Command(name = "operation", description = "Find a connector's operations.",
        subcommands = {Groups.class, Search.class, Preview.class,
                Call.class, RunStatus.class, RunCancel.class, ResultQueryCmd.class})
public final class OperationCommand {

    /** A connector's groups as a table ({@code svc operation groups}). */
    static void printGroups(CliContext ctx, JsonNode groups) {
        List<List<String>> rows = Tables.rows(groups, g -> List.of(g.path("group_key").asText(),
                g.path("display_name").asText(),
                    g.path("enabled_op_count").asInt() + "/" + g.path("operation_count").asInt()
                            + (g.path("partial").asBoolean() ? " partial" : ""), g.path("when_to_use").asText()));
        Tables.print(ctx, List.of("GROUP", "NAME", "ENABLED", "WHEN TO USE"), rows);
    }
}
