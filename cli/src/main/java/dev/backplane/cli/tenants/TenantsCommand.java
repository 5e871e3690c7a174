package dev.backplane.cli.tenants;

import picocli.CommandLine.Command;

/** {@code svc tenants}: the tenant acted on, its name and its policies. */
@Command(name = "tenants", description = "The tenant acted on: its name and its policies.",
        subcommands = {TenantShow.class, TenantRename.class, FlightRecorderPolicyCommand.class,
                MailRecipientPolicyCommand.class,
                ApprovalNotificationsCommand.class})
public final class TenantsCommand {
}
