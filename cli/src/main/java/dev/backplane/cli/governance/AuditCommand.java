package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc audit ...}: read the audit log. Times take 30m, 24h, 7d, 2w or ISO 8601. */
@Command(name = "audit", description = "Read the audit log.",
        subcommands = {AuditCommand.MyRecent.class, AuditCommand.Recent.class, AuditCommand.Query.class,
                AuditCommand.Show.class, AuditCommand.Replay.class, AuditCommand.WhoTouched.class, AuditCommand.Reflex.class})
public final class AuditCommand {

    static String query(Map<String, Object> params) {
        QueryString q = QueryString.of();
        params.forEach(q::add);
        return q.toString();
    }

    static void table(CliContext ctx, JsonNode page) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode r : page.path("rows")) {
            rows.add(List.of(r.path("occurred_at").asText(), r.path("result_status").asText(), r.path("principal").asText(),
                    r.path("op_id").asText(), r.path("target").isNull() ? "" : r.path("target").asText(),
                    r.path("work_ref").isNull() ? "" : r.path("work_ref").asText(), r.path("audit_id").asText()));
        }
        if (rows.isEmpty()) {
            ctx.out().println("no audit rows");
        } else {
            Tables.print(ctx.out(), List.of("TIME", "STATUS", "PRINCIPAL", "OP", "TARGET", "WORK_REF", "AUDIT ID"), rows);
        }
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
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("since", since);
            p.put("limit", limit);
            JsonNode page = s.client().get(ApiPaths.AUDIT_MINE + query(p)).json();
            print(page, () -> table(ctx, page));
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
            JsonNode page = s.client().get(ApiPaths.AUDIT + query(limit == null ? Map.of() : Map.of("limit", limit))).json();
            print(page, () -> table(ctx, page));
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
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("audit_id", auditId);
            p.put("cursor", cursor);
            p.put("limit", limit);
            p.put("op_class", opClass);
            p.put("op_id", opId);
            p.put("parent_audit_id", parent);
            p.put("principal", principal);
            p.put("result_status", resultStatus);
            p.put("session_id", sessionId);
            p.put("since", since);
            p.put("target", target);
            p.put("until", until);
            p.put("work_ref", workRef);
            JsonNode page = s.client().get(ApiPaths.AUDIT + query(p)).json();
            print(page, () -> table(ctx, page));
        }
    }

    /** show */
    @Command(name = "show", description = "One audit row.")
    static final class Show extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<audit-id>")
        String id;

        @Override
        protected void execute(Session s) {
            JsonNode r = s.client().get(ApiPaths.expand(ApiPaths.AUDIT_ROW, id)).json();
            print(r, () -> r.properties().forEach(e -> {
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
            JsonNode tree = s.client().get(ApiPaths.expand(ApiPaths.AUDIT_SESSION, session)
                    + query(maxDepth == null ? Map.of() : Map.of("max_depth", maxDepth))).json();
            print(tree, () -> {
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
            JsonNode list = s.client().get(ApiPaths.expand(ApiPaths.AUDIT_WHO_TOUCHED, target)).json();
            print(list, () -> {
                List<List<String>> rows = new ArrayList<>();
                list.forEach(p -> rows.add(List.of(p.path("principal").asText(), p.path("principal_kind").asText(),
                        p.path("calls").asText(), p.path("writes").asText(), p.path("last_at").asText())));
                if (rows.isEmpty()) {
                    ctx.out().println("nobody has dispatched against " + target);
                } else {
                    Tables.print(ctx.out(), List.of("PRINCIPAL", "KIND", "CALLS", "WRITES", "LAST"), rows);
                }
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
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("since", since);
            p.put("until", until);
            JsonNode r = s.client().get(ApiPaths.AUDIT_REFLEX + query(p)).json();
            print(r, () -> {
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
