package dev.backplane.cli.tenants;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc tenants flight-recorder-policy show|set}. */
@Command(name = "flight-recorder-policy", description = "Show or change the tenant's flight-recorder policy.",
        subcommands = {FlightRecorderPolicyShow.class, FlightRecorderPolicySet.class})
public final class FlightRecorderPolicyCommand {

    static final String PATH = ApiPaths.FLIGHT_RECORDER_POLICY;

    /** The policy as people read it ({@code --json} and {@code -o} print the server's document instead). */
    static void print(CliContext ctx, JsonNode policy) {
        ctx.out().printf("%-15s %s%n", "enabled", policy.path("enabled").asBoolean());
        ctx.out().printf("%-15s %s%n", "agent_readable", policy.path("agent_readable").asText());
        ctx.out().printf("%-15s %s%n", "retention_days",
                policy.path("retention_days").isNull() ? "(deploy default)" : policy.path("retention_days").asText());
        if (!policy.path("updated_at").isNull()) {
            ctx.out().printf("%-15s %s by %s%n", "updated", policy.path("updated_at").asText(),
                    policy.path("updated_by").asText());
        }
    }
}
