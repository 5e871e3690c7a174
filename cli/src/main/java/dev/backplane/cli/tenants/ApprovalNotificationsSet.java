package dev.backplane.cli.tenants;

import static dev.backplane.cli.tenants.ApprovalNotificationsCommand.PATH;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code svc tenants approval-notifications set [--mail-recipients ...] [--webhook-url ... --format ...
 * --secret-ref ...] [--events ...] [--enabled true|false]} [tenant_admin]. Replaces the whole settings: what is not
 * given takes its default.
 */
@Command(name = "set", description = "Replace the settings; what is not given takes its default (tenant_admin).")
final class ApprovalNotificationsSet extends BackplaneCommand {

    @Option(names = "--mail-recipients", paramLabel = "<addresses>", description = "comma-separated plain addresses; "
            + "each is checked against the tenant's mail-recipient policy when a message is sent")
    String mailRecipients;

    @Option(names = "--webhook-url", paramLabel = "<url>", description = "http(s) URL the webhook is POSTed to")
    String webhookUrl;

    @Option(names = "--format", paramLabel = "json|slack|teams", description = "the webhook's body (default json)")
    String format;

    @Option(names = "--secret-ref", paramLabel = "<secret_ref>", description = "secret_ref of the signing secret "
            + "(field secret, whsec_<base64>); required for json, optional for slack and teams")
    String secretRef;

    @Option(names = "--events", paramLabel = "<events>", description = "comma-separated: parked (always sent), "
            + "decided, expired (default all)")
    String events;

    @Option(names = "--enabled", arity = "1", paramLabel = "true|false", description = "send (default true)")
    Boolean enabled;

    /** The body of PUT .../approval-notifications. */
    @RequestBody
    record SettingsSet(Boolean enabled, String mailRecipients, String webhookUrl, String webhookFormat,
                       String webhookSecretRef, List<String> events) {
    }

    @Override
    protected void validate() {
        if (mailRecipients == null && webhookUrl == null) {
            throw CliException.usage("give --mail-recipients <addresses>, --webhook-url <url>, or both "
                    + "(svc tenants approval-notifications clear turns notifications off)");
        }
        if ((format != null || secretRef != null) && webhookUrl == null) {
            throw CliException.usage("--format and --secret-ref describe the webhook: give --webhook-url too");
        }
    }

    @Override
    protected void execute(Session s) {
        List<String> eventList = events == null ? null : Arrays.stream(events.split(",")).map(String::strip)
                .filter(e -> !e.isEmpty()).toList();
        send(s, "PUT", PATH, new SettingsSet(enabled, mailRecipients, webhookUrl, format, secretRef, eventList),
                ApprovalNotificationsCommand::print);
    }
}
