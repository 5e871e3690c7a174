package dev.backplane.cli.tenants;

import static dev.backplane.cli.tenants.MailRecipientPolicyCommand.PATH;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc tenants mail-recipient-policy set --allowlist <addresses/domains> | --clear} [tenant_admin] */
@Command(name = "set", description = "Replace the allowlist, or --clear the policy (tenant_admin).")
final class MailRecipientPolicySet extends BackplaneCommand {

    @Option(names = "--allowlist", paramLabel = "<addresses/domains>", description = "comma-separated addresses "
            + "(ops@example.com), domains (example.com) or subdomains (.example.com); \"\" denies all mail")
    String allowlist;

    @Option(names = "--clear", description = "remove the policy (unset: notification mail is denied until one is set)")

    boolean clear;

    /** The body of PUT .../mail-recipient-policy. */
    @RequestBody
    record PolicySet(String allowlist) {
    }

    @Override
    protected void validate() {
        if (allowlist != null && clear) {
            throw CliException.usage("--allowlist and --clear are mutually exclusive");
        }
        if (allowlist == null && !clear) {
            throw CliException.usage("give --allowlist <addresses/domains> (\"\" denies all mail) or --clear");
        }
    }

    @Override
    protected void execute(Session s) {
        send(s, clear ? "DELETE" : "PUT", PATH, clear ? null : new PolicySet(allowlist), MailRecipientPolicyCommand::print);
    }
}
