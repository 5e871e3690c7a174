package dev.backplane.cli.tenants;

import dev.backplane.cli.common.RequestBody;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc tenants flight-recorder-policy show|set}. */
@Command(name = "flight-recorder-policy", description = "Show or change the tenant's flight-recorder policy.",
        subcommands = {FlightRecorderPolicyCommand.Show.class, FlightRecorderPolicyCommand.Set.class})
public final class FlightRecorderPolicyCommand {

    static final String PATH = ApiPaths.FLIGHT_RECORDER_POLICY;

    static void print(CliContext ctx, JsonNode policy, boolean json) {
        if (json) {
            ctx.out().println(policy.toPrettyString());
            return;
        }
        ctx.out().printf("%-15s %s%n", "enabled", policy.path("enabled").asBoolean());
        ctx.out().printf("%-15s %s%n", "agent_readable", policy.path("agent_readable").asText());
        ctx.out().printf("%-15s %s%n", "retention_days",
                policy.path("retention_days").isNull() ? "(deploy default)" : policy.path("retention_days").asText());
        if (!policy.path("updated_at").isNull()) {
            ctx.out().printf("%-15s %s by %s%n", "updated", policy.path("updated_at").asText(),
                    policy.path("updated_by").asText());
        }
    }

    /** show */
    @Command(name = "show", description = "Show the policy.")
    static final class Show extends BackplaneCommand {
        @Override
        protected void execute(Session s) {
            FlightRecorderPolicyCommand.print(ctx, s.client().get(PATH).json(), options.json());
        }
    }

    /** set [tenant_admin] */
    @Command(name = "set", description = "Change the policy (tenant_admin).")
    static final class Set extends BackplaneCommand {

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
            FlightRecorderPolicyCommand.print(ctx, s.client().call("PATCH", PATH, change).json(), options.json());
        }
    }
}
