package dev.backplane.cli.runbooks;

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

/** {@code svc runbook list} */
@Command(name = "list", description = "The tenant's runbook runs, newest first.")
final class ListRuns extends BackplaneCommand {
    @Option(names = "--status", description = "in_progress, awaiting_approval, escalated, completed, stopped or aborted")
    String status;
    @Option(names = "--slug", description = "runs of this template") String slug;
    @Mixin Paging paging;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.RUNBOOK_RUNS + QueryString.of().add("status", status).add("slug", slug).add(paging),
                page -> Tables.print(ctx, "no runbook runs",
                List.of("ID", "RUNBOOK", "STATUS", "STEP", "TARGET", "ASSIGNEE", "STARTED"), Tables.rows(page.path("runs"),
                        r -> List.of(r.path("id").asText(), r.path("slug").asText() + " v" + r.path("version").asInt(),
                                r.path("status").asText(), r.path("step").asText(), r.path("target").asText(""),
                                r.path("assignee").asText(), r.path("started_at").asText()))));
    }
}
