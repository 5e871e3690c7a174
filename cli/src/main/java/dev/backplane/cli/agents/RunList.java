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
import picocli.CommandLine.Option;

/** {@code svc agent run-list} */
@Command(name = "run-list", description = "Agent runs, newest first.")
final class RunList extends BackplaneCommand {
    @Option(names = "--agent-name") String agentName;
    @Option(names = "--status", description = "pending, running, awaiting_approval, succeeded, failed or cancelled")
    String status;
    @Option(names = "--work-ref") String workRef;
    @Mixin Paging paging;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.AGENT_RUNS + QueryString.of().add("agent_name", agentName).add("status", status)
                .add("work_ref", workRef).add(paging), page -> Tables.print(ctx,
                "no agent runs", List.of("HANDLE", "AGENT", "STATUS", "TURNS", "WORK_REF", "STARTED"),
                Tables.rows(page.path("runs"), r -> List.of(r.path("handle").asText(), r.path("agent_name").asText(),
                        r.path("status").asText(), r.path("turns").asText(),
                        r.path("work_ref").isNull() ? "" : r.path("work_ref").asText(), r.path("created_at").asText()))));
    }
}
