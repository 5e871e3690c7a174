package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.Tables;
import picocli.CommandLine.Command;

/** {@code svc approvals list / show / approve / reject}. */
@Command(name = "approvals", description = "Parked calls waiting for a second person.",
        subcommands = {ApprovalList.class, ApprovalShow.class, Approve.class,
                Reject.class})
public final class ApprovalsCommand {

    static void printOne(CliContext ctx, JsonNode a) {
        ctx.out().println(a.path("id").asText() + "  " + a.path("status").asText().toUpperCase(java.util.Locale.ROOT));
        ctx.out().printf("  %-12s %s%n", "operation", a.path("connector_id").asText() + " " + a.path("op_id").asText()
                + " on " + a.path("target").asText());
        ctx.out().printf("  %-12s %s%n", "requester", Tables.principal(a, "requester", "requester_username"));
        if (!a.path("work_ref").isNull()) {
            ctx.out().printf("  %-12s %s%n", "work_ref", a.path("work_ref").asText());
        }
        ctx.out().printf("  %-12s %s%n", "request", a.path("resolved").toString());
        ctx.out().printf("  %-12s %s (expires %s)%n", "created", a.path("created_at").asText(), a.path("expires_at").asText());
        if (!a.path("decided_by").isNull()) {
            ctx.out().printf("  %-12s %s at %s%s%s%n", "decided by", Tables.principal(a, "decided_by", "decided_by_username"),
                    a.path("decided_at").asText(), a.path("reason").isNull() ? "" : " — " + a.path("reason").asText(),
                    a.path("break_glass").asBoolean() ? " [BREAK-GLASS]" : "");
        }
    }
}
