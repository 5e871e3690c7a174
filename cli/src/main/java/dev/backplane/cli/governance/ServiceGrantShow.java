package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc service-principals grants show} */
@Command(name = "show", description = "One service grant.")
final class ServiceGrantShow extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<grant-id>") String id;

    ServiceGrantShow() {
        super("GET " + ApiPaths.SERVICE_GRANTS + "/{id}", ServicePrincipalsCommand::print);
    }
}
