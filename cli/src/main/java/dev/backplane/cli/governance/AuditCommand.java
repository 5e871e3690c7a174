package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc audit ...}: read the audit log. Times take 30m, 24h, 7d, 2w or ISO 8601. */
@Command(name = "audit", description = "Read the audit log.",
        subcommands = {AuditCommand.MyRecent.class, AuditCommand.Recent.class, AuditCommand.Query.class,
                AuditCommand.Show.class, AuditCommand.Replay.class, AuditCommand.WhoTouched.class, AuditCommand.Reflex.class})
public final class AuditCommand {

    static void table(CliContext ctx, JsonNode page) {
        List<List<String>> rows = Tables.rows(page.path("rows"), r -> List.of(r.path("occurred_at").asText(), r.path("result_status").asText(), r.path("principal").asText(),
                    r.path("op_id").asText(), r.path("target").isNull() ? "" : r.path("target").asText(),
                    r.path("work_ref").isNull() ? "" : r.path("work_ref").asText(), r.path("audit_id").asText()));
        Tables.print(ctx.out(), "no audit rows", List.of("TIME", "STATUS", "PRINCIPAL", "OP", "TARGET", "WORK_REF", "AUDIT ID"), rows);
        if (!page.path("next_cursor").isNull() && !page.path("next_cursor").isMissingNode()) {
            ctx.out().println("more: --cursor " + page.path("next_cursor").asText());
        }
    }

    static void checkLimit(Integer limit) {
        Limits.check(limit, 1, 1000, "--limit");
    }

    /** my-recent */
    @Command(name = "my-recent", description = "Your own recent dispatches.")
    static final class MyRecent extends BackplaneCommand {
        @Option(names = "--since")
        String since;
        @Option(names = "--limit")
        Integer limit;

        @Override
        protected void validate() {
            checkLimit(limit);
        }

        @Override
        protected void execute(Session s) {
            QueryString q = QueryString.of().add("since", since).add("limit", limit);
            get(s, ApiPaths.AUDIT_MINE + q, page -> table(ctx, page));
        }
    }

    /** recent */
    @Command(name = "recent", description = "The tenant's recent dispatches.")
    static final class Recent extends BackplaneCommand {
        @Option(names = "--limit")
        Integer limit;

        @Override
        protected void validate() {
            checkLimit(limit);
        }

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.AUDIT + QueryString.of().add("limit", limit), page -> table(ctx, page));
        }
    }

    /** query */
    @Command(name = "query", description = "Query the audit log with filters.")
    static final class Query extends BackplaneCommand {
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

    /** show */
    @Command(name = "show", description = "One audit row.")
    static final class Show extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<audit-id>")
        String id;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.AUDIT_ROW, id), r -> r.properties().forEach(e -> {
                if (!e.getValue().isNull()) {
                    ctx.out().printf("%-20s %s%n", e.getKey(), e.getValue().isTextual() ? e.getValue().asText()
                            : e.getValue().toString());
                }
            }));
        }
    }

    /** replay */
    @Command(name = "replay", description = "Replay an agent session's rows with their composite children.")
    static final class Replay extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<session-id>")
        String session;
        @Option(names = "--max-depth", description = "default 20")
        Integer maxDepth;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.AUDIT_SESSION, session)
                    + QueryString.of().add("max_depth", maxDepth), tree -> {
                if (tree.isEmpty()) {
                    ctx.out().println("no rows for session " + session);
                }
                tree.forEach(n -> printNode(n, 0));
            });
        }

        private void printNode(JsonNode n, int depth) {
            ctx.out().println("  ".repeat(depth) + n.path("occurred_at").asText() + " " + n.path("result_status").asText()
                    + " " + n.path("op_id").asText() + " " + (n.path("target").isNull() ? "" : n.path("target").asText()));
            n.path("children").forEach(c -> printNode(c, depth + 1));
        }
    }

    /** who-touched */
    @Command(name = "who-touched", description = "Who dispatched against a target.")
    static final class WhoTouched extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<target>")
        String target;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.AUDIT_WHO_TOUCHED, target), list -> {
                List<List<String>> rows = Tables.rows(list, p -> List.of(p.path("principal").asText(), p.path("principal_kind").asText(),
                        p.path("calls").asText(), p.path("writes").asText(), p.path("last_at").asText()));
                Tables.print(ctx.out(), "nobody has dispatched against " + target, List.of("PRINCIPAL", "KIND", "CALLS", "WRITES", "LAST"), rows);
            });
        }
    }

    /** reflex */
    @Command(name = "reflex", description = "Summary of governed activity in a window [tenant_admin; --tenant: platform_admin].")
    static final class Reflex extends BackplaneCommand {
        @Option(names = "--since", description = "default 24h")
        String since;
        @Option(names = "--until")
        String until;

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
}
