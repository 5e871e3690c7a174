package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc audit query} */
@Command(name = "query", description = "Query the audit log with filters.")
final class AuditQuery extends AuditPage {
    @Option(names = "--audit-id") String auditId;
    @Option(names = "--cursor") String cursor;
    @Option(names = "--limit", paramLabel = "1..1000", description = "default 100") Integer limit;
    @Option(names = "--op-class") String opClass;
    @Option(names = "--op-id", description = "glob, e.g. k8s.pod.*") String opId;
    @Option(names = "--parent-audit-id") String parent;
    @Option(names = "--principal", description = "partial match") String principal;
    @Option(names = "--result-status") String resultStatus;
    @Option(names = "--session-id") String sessionId;
    @Option(names = "--since") String since;
    @Option(names = "--target") String target;
    @Option(names = "--until") String until;
    @Option(names = "--work-ref") String workRef;

    @Override
    String path() {
        return ApiPaths.AUDIT + QueryString.of().add("audit_id", auditId).add("cursor", cursor).add("limit", limit)
                .add("op_class", opClass).add("op_id", opId).add("parent_audit_id", parent)
                .add("principal", principal).add("result_status", resultStatus).add("session_id", sessionId)
                .add("since", since).add("target", target).add("until", until).add("work_ref", workRef);
    }
}
