package dev.backplane.cli.tenants;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc tenants approval-notifications show|set|clear}. */
@Command(name = "approval-notifications", description = "Show or change how the tenant's approvers are told of "
        + "parked calls, decisions and expiries (mail, webhook).",
        subcommands = {ApprovalNotificationsShow.class, ApprovalNotificationsSet.class, ApprovalNotificationsClear.class})
public final class ApprovalNotificationsCommand {

    static final String PATH = ApiPaths.APPROVAL_NOTIFICATIONS;

    /** The settings as people read them ({@code --json} and {@code -o} print the server's document instead). */
    static void print(CliContext ctx, JsonNode s) {
        if (!s.path("configured").asBoolean()) {
            ctx.out().printf("%-12s %s%n", "state", "unset (nothing is sent; set it with "
                    + "svc tenants approval-notifications set)");
            return;
        }
        ctx.out().printf("%-12s %s%n", "state", s.path("enabled").asBoolean() ? "enabled" : "disabled");
        String mail = s.path("mail_recipients").asText();
        ctx.out().printf("%-12s %s%n", "mail", mail.isEmpty() ? "-" : mail);
        ctx.out().printf("%-12s %s%n", "webhook", s.path("webhook_url").isTextual()
                ? s.path("webhook_url").asText() + " (" + s.path("webhook_format").asText() + ")" : "-");
        ctx.out().printf("%-12s %s%n", "secret_ref", s.path("webhook_secret_ref").isTextual()
                ? s.path("webhook_secret_ref").asText() + " (signed: Standard Webhooks)" : "- (unsigned)");
        StringBuilder events = new StringBuilder();
        s.path("events").forEach(e -> events.append(events.isEmpty() ? "" : ",").append(e.asText()));
        ctx.out().printf("%-12s %s%n", "events", events);
        if (s.path("updated_at").isTextual()) {
            ctx.out().printf("%-12s %s by %s%n", "updated", s.path("updated_at").asText(),
                    s.path("updated_by").asText());
        }
    }
}
