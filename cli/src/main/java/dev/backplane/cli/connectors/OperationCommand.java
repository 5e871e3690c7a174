package dev.backplane.cli.connectors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.Tables;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc operation ...}: find operations of a connector. */
@Command(name = "operation", description = "Find a connector's operations.",
        subcommands = {OperationCommand.Groups.class, OperationCommand.Search.class, OperationCalls.Preview.class,
                OperationCalls.Call.class, OperationCalls.ResultQueryCmd.class})
public final class OperationCommand {

    /** groups */
    @Command(name = "groups", description = "A connector's operation groups.")
    static final class Groups extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<connector_id>")
        String id;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.CONNECTOR_GROUPS, id), groups -> {
                List<List<String>> rows = Tables.rows(groups, g -> List.of(g.path("group_key").asText(), g.path("display_name").asText(),
                            g.path("enabled_op_count").asInt() + "/" + g.path("operation_count").asInt()
                                    + (g.path("partial").asBoolean() ? " partial" : ""), g.path("when_to_use").asText()));
                Tables.print(ctx.out(), List.of("GROUP", "NAME", "ENABLED", "WHEN TO USE"), rows);
            });
        }
    }

    /** search */
    @Command(name = "search", description = "Search a connector's operations.")
    static final class Search extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<connector_id>")
        String id;

        @Parameters(index = "1", paramLabel = "<query>")
        String query;

        @Option(names = "--group", description = "only this group")
        String group;

        @Option(names = "--limit", paramLabel = "1..50", description = "maximum hits (default 10)")
        Integer limit;

        @Override
        protected void validate() {
            Limits.check(limit, 1, 50, "--limit");
        }

        @Override
        protected void execute(Session s) {
            StringBuilder path = new StringBuilder(ApiPaths.expand(ApiPaths.CONNECTOR_OPERATIONS, id))
                    .append("?query=").append(enc(query));
            if (group != null) {
                path.append("&group=").append(enc(group));
            }
            if (limit != null) {
                path.append("&limit=").append(limit);
            }
            get(s, path.toString(), r -> {
                if (r.path("hits").isEmpty()) {
                    ctx.out().println("no operation of " + id + " matches '" + query + "'"
                            + (group == null ? "" : " in group " + group));
                    return;
                }
                List<List<String>> rows = Tables.rows(r.path("hits"), h -> List.of(h.path("op_id").asText(), h.path("safety_level").asText(),
                            h.path("requires_approval").asBoolean() ? "approval" : "",
                            h.path("is_enabled").asBoolean() ? "on" : "off", h.path("description").asText()));
                Tables.print(ctx.out(), List.of("OP", "SAFETY", "GATE", "ENABLED", "DESCRIPTION"), rows);
            });
        }

        private static String enc(String s) {
            return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
        }
    }
}
