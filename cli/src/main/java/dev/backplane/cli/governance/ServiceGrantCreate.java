package dev.backplane.cli.governance;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc service-principals grants create} */
@Command(name = "create", description = "Grant a service principal one exact operation [tenant_admin].")
final class ServiceGrantCreate extends BackplaneCommand {
    @Option(names = "--principal", required = true, description = "the service principal's JWT subject")
    String principal;
    @Option(names = "--connector-id", required = true) String connectorId;
    @Option(names = "--op-id", required = true) String opId;
    @Option(names = "--reason", required = true) String reason;
    @Option(names = "--target", description = "target uuid") String target;
    @Option(names = "--target-name-pattern", description = "fnmatch over target names") String namePattern;
    @Option(names = "--target-product") String product;
    @Option(names = "--expires", description = "ISO 8601 UTC time") String expires;

    /** The body of POST /api/v1/service-principals/grants. */
    @RequestBody
    record ServiceGrant(String principal, String connectorId, String opId, String reason, String target,
            String targetNamePattern, String targetProduct, String expires) {
    }

    @Override
    protected void execute(Session s) {
        ServiceGrant body = new ServiceGrant(principal, connectorId, opId, reason, target, namePattern, product,
                expires);
        send(s, "POST", ApiPaths.SERVICE_GRANTS, body, g -> ServicePrincipalsCommand.print(ctx, g));
    }
}
