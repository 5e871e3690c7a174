package dev.backplane.cli.connectors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc connector prefer <product> <impl_id>} and {@code svc connector prefer <product> --clear}. */
@Command(name = "prefer", description = "Prefer an implementation for a product when several enabled connectors fit "
        + "a target (after the target's preferred_impl_id, before the most specific version range) [tenant_admin].")
final class Prefer extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<product>", description = "product token, e.g. keycloak") String product;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<impl_id>", description = "the implementation to prefer")
    String implId;

    @Option(names = "--clear", description = "clear the tenant's preference for the product") boolean clear;

    @Override
    protected void validate() {
        if (clear == (implId != null)) {
            throw CliException.usage("name an <impl_id> to prefer, or --clear (not both)");
        }
    }

    @Override
    protected void execute(Session s) {
        String path = ApiPaths.expand(ApiPaths.CONNECTOR_PREFERENCE, product);
        if (clear) {
            send(s, "DELETE", path, null, r -> ctx.out().println("cleared the preference for " + product
                    + "; the most specific version range decides ties"));
        } else {
            send(s, "PUT", path, Map.of("impl_id", implId), r -> ctx.out().println(product + ": prefer "
                    + r.path("impl_id").asText() + " (the next call and probe resolve with it)"));
        }
    }
}
