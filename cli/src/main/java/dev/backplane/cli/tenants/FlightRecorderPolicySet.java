package dev.backplane.cli.tenants;

import static dev.backplane.cli.tenants.FlightRecorderPolicyCommand.PATH;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc tenants flight-recorder-policy set} [tenant_admin] */
@Command(name = "set", description = "Change the policy (tenant_admin).")
final class FlightRecorderPolicySet extends BackplaneCommand {

    @Option(names = "--enabled", arity = "1", paramLabel = "true|false", description = "record agent sessions")

    Boolean enabled;

    @Option(names = "--agent-readable", paramLabel = "true|false|inherit", description = "may agents read recordings")

    String agentReadable;

    @Option(names = "--retention-days", paramLabel = "1..365", description = "how long recordings are kept")

    Integer retentionDays;

    @Option(names = "--clear-retention", description = "go back to the deploy's default retention")

    boolean clearRetention;

    /** The body of PATCH .../flight-recorder-policy: only what changes. */
    @RequestBody
    record PolicyChange(Boolean enabled, String agentReadable, Integer retentionDays, Boolean clearRetention) {
    }

    @Override
    protected void validate() {
        if (retentionDays != null && clearRetention) {
            throw CliException.usage("--retention-days and --clear-retention are mutually exclusive");
        }
        if (retentionDays != null && (retentionDays < 1 || retentionDays > 365)) {
            throw CliException.usage("--retention-days must be 1..365, got " + retentionDays);
        }
        if (enabled == null && agentReadable == null && retentionDays == null && !clearRetention) {
            throw CliException.usage("nothing to change: give --enabled, --agent-readable, --retention-days "
                    + "or --clear-retention");
        }
    }

    @Override
    protected void execute(Session s) {
        PolicyChange change = new PolicyChange(enabled, agentReadable, retentionDays, clearRetention ? true : null);
        send(s, "PATCH", PATH, change, FlightRecorderPolicyCommand::print);
    }
}
