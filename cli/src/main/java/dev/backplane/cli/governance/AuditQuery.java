package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AuditCommand.checkLimit;
import static dev.backplane.cli.governance.AuditCommand.table;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** query */
@Command(name = "query", description = "Query the audit log with filters.")
final class AuditQuery extends BackplaneCommand {
    @Option(names = "--audit-id")
    String auditId;
    @Option(names = "--cursor")
    String cursor;
    @Option(names = "--limit", description = "1..1000, default 100")
    Integer limit;
    @Option(names = "--op-class")
    String opClass;
    @Option(names = "--op-id", description = "glob, e.g. k8s.pod.*")
    String opId;
    @Option(names = "--parent-audit-id")
    String parent;
    @Option(names = "--principal", description = "partial match")
    String principal;
    @Option(names = "--result-status")
    String resultStatus;
    @Option(names = "--session-id")
    String sessionId;
    @Option(names = "--since")
    String since;
    @Option(names = "--target")
    String target;
    @Option(names = "--until")
    String until;
    @Option(names = "--work-ref")
    String workRef;

    @Override
    protected void validate() {
        checkLimit(limit);
    }

    @Override
    protected void execute(Session s) {
        QueryString q = QueryString.of().add("audit_id", auditId).add("cursor", cursor).add("limit", limit)
                .add("op_class", opClass).add("op_id", opId).add("parent_audit_id", parent)
                .add("principal", principal).add("result_status", resultStatus).add("session_id", sessionId)
                .add("since", since).add("target", target).add("until", until).add("work_ref", workRef);
        get(s, ApiPaths.AUDIT + q, page -> table(ctx, page));
    }
}
