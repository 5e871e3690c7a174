package dev.backplane.cli.governance;

import dev.backplane.cli.common.RequestBody;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc approvals list / show / approve / reject}. */
@Command(name = "approvals", description = "Parked calls waiting for a second person.",
        subcommands = {ApprovalsCommand.ListCmd.class, ApprovalsCommand.Show.class, ApprovalsCommand.Approve.class,
                ApprovalsCommand.Reject.class})
public final class ApprovalsCommand {

    static void printOne(CliContext ctx, JsonNode a) {
        ctx.out().println(a.path("id").asText() + "  " + a.path("status").asText().toUpperCase(java.util.Locale.ROOT));
        ctx.out().printf("  %-12s %s%n", "operation", a.path("connector_id").asText() + " " + a.path("op_id").asText()
                + " on " + a.path("target").asText());
        ctx.out().printf("  %-12s %s%n", "requester", a.path("requester").asText());
        if (!a.path("work_ref").isNull()) {
            ctx.out().printf("  %-12s %s%n", "work_ref", a.path("work_ref").asText());
        }
        ctx.out().printf("  %-12s %s%n", "request", a.path("resolved").toString());
        ctx.out().printf("  %-12s %s (expires %s)%n", "created", a.path("created_at").asText(), a.path("expires_at").asText());
        if (!a.path("decided_by").isNull()) {
            ctx.out().printf("  %-12s %s at %s%s%s%n", "decided by", a.path("decided_by").asText(),
                    a.path("decided_at").asText(), a.path("reason").isNull() ? "" : " — " + a.path("reason").asText(),
                    a.path("break_glass").asBoolean() ? " [BREAK-GLASS]" : "");
        }
    }

    /** The body of approve and reject; break_glass is sent only when set. */
    @RequestBody
    record Decision(String reason, Boolean breakGlass) {
    }

    /** list */
    @Command(name = "list", description = "Approval requests, newest first.")
    static final class ListCmd extends BackplaneCommand {
        @Option(names = "--status", description = "pending, approved, rejected or expired")
        String status;
        @Option(names = "--work-ref")
        String workRef;
        @Option(names = "--limit", description = "1..500, default 50")
        Integer limit;
        @Option(names = "--offset")
        Integer offset;

        @Override
        protected void validate() {
            Limits.check(limit, 1, 500, "--limit");
        }

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.APPROVALS + QueryString.of().add("status", status)
                    .add("work_ref", workRef).add("limit", limit).add("offset", offset), list -> {
                List<List<String>> rows = Tables.rows(list, a -> List.of(a.path("id").asText(), a.path("status").asText(), a.path("op_id").asText(),
                            a.path("target").asText(), a.path("requester").asText(),
                            a.path("work_ref").isNull() ? "" : a.path("work_ref").asText()));
                Tables.print(ctx.out(), "no approval requests", List.of("ID", "STATUS", "OPERATION", "TARGET", "REQUESTER", "WORK_REF"), rows);
            });
        }
    }

    /** show */
    @Command(name = "show", description = "One request with the resolved call.")
    static final class Show extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<id>")
        String id;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.APPROVAL, id), a -> printOne(ctx, a));
        }
    }

    /** approve */
    @Command(name = "approve", description = "Approve and run the parked call [tenant_admin; not your own request].")
    static final class Approve extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<id>")
        String id;
        @Option(names = "--reason")
        String reason;
        @Option(names = "--break-glass", description = "approve your own request in an emergency (needs --reason; audited)")
        boolean breakGlass;

        @Override
        protected void validate() {
            if (breakGlass && (reason == null || reason.isBlank())) {
                throw CliException.usage("--break-glass needs --reason");
            }
        }

        @Override
        protected void execute(Session s) {
            Decision body = new Decision(reason, breakGlass ? true : null);
            JsonNode answer = send(s, "POST", ApiPaths.expand(ApiPaths.APPROVAL, id) + "/approve", body, r -> {
                printOne(ctx, r.path("approval"));
                JsonNode env = r.path("result");
                ctx.out().println("result: " + env.path("status").asText() + (env.path("error").isNull() ? ""
                        : " — " + env.path("error").asText()));
                if (!env.path("result").isNull()) {
                    ctx.out().println(env.path("result").toPrettyString());
                }
            });
            if (!answer.path("result").path("status").asText().equals("ok")) {
                throw new CliException(ExitCodes.FAILED, "the approved call did not succeed: "
                        + answer.path("result").path("status").asText());
            }
        }
    }

    /** reject */
    @Command(name = "reject", description = "Reject a pending request [tenant_admin].")
    static final class Reject extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<id>")
        String id;
        @Option(names = "--reason")
        String reason;

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.expand(ApiPaths.APPROVAL, id) + "/reject", new Decision(reason, null), a -> printOne(ctx, a));
        }
    }
}
