package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc service-principals grants revoke} */
@Command(name = "revoke", description = "Revoke a service grant [tenant_admin].")
final class ServiceGrantRevoke extends GrantRevocation {
    @Parameters(index = "0", paramLabel = "<grant-id>") String id;

    ServiceGrantRevoke() {
        super(ApiPaths.SERVICE_GRANTS + "/{id}/revoke", ServicePrincipalsCommand::print);
    }
}
