package dev.backplane.cli.tenants;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc tenants show}: the acting tenant's id and display name. */
@Command(name = "show", description = "Show the tenant acted on: its id and display name.")
final class TenantShow extends BackplaneCommand {
    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.TENANT, tenant -> print(ctx, tenant));
    }

    /** The tenant as people read it ({@code --json} and {@code -o} print the server's document instead). */
    static void print(CliContext ctx, JsonNode tenant) {
        ctx.out().printf("%-8s %s%n", "id", tenant.path("id").asText());
        JsonNode name = tenant.path("display_name");
        ctx.out().printf("%-8s %s%n", "name", name.isTextual() ? name.asText() : "(none: svc tenants rename <name>)");
    }
}
