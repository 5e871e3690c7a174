package dev.backplane.cli.tenants;

import picocli.CommandLine.Command;

/** {@code svc tenants}: per-tenant policies. */
@Command(name = "tenants", description = "Per-tenant policies.",
        subcommands = {FlightRecorderPolicyCommand.class, MailRecipientPolicyCommand.class,
                ApprovalNotificationsCommand.class})
public final class TenantsCommand {
}
