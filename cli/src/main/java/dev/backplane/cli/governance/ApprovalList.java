package dev.backplane.cli.governance;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc approvals list} */
@Command(name = "list", description = "Approval requests, newest first.")
final class ApprovalList extends BackplaneCommand {
    @Option(names = "--status", description = "pending, approved, rejected or expired") String status;
    @Option(names = "--work-ref") String workRef;
    @Option(names = "--limit", paramLabel = "1..500", description = "default 50") Integer limit;
    @Option(names = "--offset") Integer offset;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.APPROVALS + QueryString.of().add("status", status)
                .add("work_ref", workRef).add("limit", limit).add("offset", offset), list -> {
            List<List<String>> rows = Tables.rows(list, a -> List.of(a.path("id").asText(), a.path("status").asText(),
                    a.path("op_id").asText(),
                        a.path("target").asText(), Tables.principal(a, "requester", "requester_username"),
                        a.path("work_ref").isNull() ? "" : a.path("work_ref").asText()));
            Tables.print(ctx, "no approval requests", List.of("ID", "STATUS", "OPERATION", "TARGET",
                    "REQUESTER", "WORK_REF"), rows);
        });
    }
}
