package dev.backplane.cli.governance;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc service-principals grants list} */
@Command(name = "list", description = "Service grants.")
final class ServiceGrantList extends BackplaneCommand {
    @Option(names = "--include-expired") boolean includeExpired;
    @Option(names = "--include-revoked") boolean includeRevoked;
    @Option(names = "--principal") String principal;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.SERVICE_GRANTS + QueryString.of().add("include_expired", includeExpired)
                .add("include_revoked", includeRevoked).add("principal", principal),
                list -> Tables.each(ctx, list, "no service grants", ServicePrincipalsCommand::print));
    }
}
