package dev.backplane.cli.tenants;

import static dev.backplane.cli.tenants.FlightRecorderPolicyCommand.PATH;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import picocli.CommandLine.Command;

/** {@code svc tenants flight-recorder-policy show} */
@Command(name = "show", description = "Show the policy.")
final class FlightRecorderPolicyShow extends BackplaneCommand {
    @Override
    protected void execute(Session s) {
        get(s, PATH, policy -> FlightRecorderPolicyCommand.print(ctx, policy));
    }
}
