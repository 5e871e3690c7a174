package dev.backplane.cli.tenants;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc tenants mail-recipient-policy show|set}. */
@Command(name = "mail-recipient-policy", description = "Show or change whom the tenant's notification mail may go to.",
        subcommands = {MailRecipientPolicyShow.class, MailRecipientPolicySet.class})
public final class MailRecipientPolicyCommand {

    static final String PATH = ApiPaths.MAIL_RECIPIENT_POLICY;

    /** The policy as people read it ({@code --json} and {@code -o} print the server's document instead). */
    static void print(CliContext ctx, JsonNode policy) {
        String mode = policy.path("mode").asText();
        ctx.out().printf("%-10s %s%n", "mode", switch (mode) {
            case "unset" -> "unset (no policy: notification mail is denied until a tenant_admin sets one)";
            case "deny_all" -> "deny_all (empty allowlist: no notification mail)";
            default -> mode;
        });
        if (mode.equals("allowlist")) {
            ctx.out().printf("%-10s %s%n", "allowlist", policy.path("allowlist").asText());
        }
        if (!policy.path("updated_at").isNull() && !policy.path("updated_at").isMissingNode()) {
            ctx.out().printf("%-10s %s by %s%n", "updated", policy.path("updated_at").asText(),
                    policy.path("updated_by").asText());
        }
    }
}
