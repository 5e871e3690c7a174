package dev.backplane.cli.tenants;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc tenants rename <name> | --clear} [tenant_admin] */
@Command(name = "rename", description = "Give the tenant acted on a display name (the console's header shows it), or "
        + "--clear it (tenant_admin).")
final class TenantRename extends BackplaneCommand {

    @Parameters(index = "0", arity = "0..1", paramLabel = "<name>", description = "1 to 100 characters")
    String name;

    @Option(names = "--clear", description = "remove the display name (the tenant is shown by its id)")
    boolean clear;

    /** The body of PUT .../display-name. */
    @RequestBody
    record DisplayNameSet(String displayName) {
    }

    @Override
    protected void validate() {
        if (name != null && clear) {
            throw CliException.usage("<name> and --clear are mutually exclusive");
        }
        if (name == null && !clear) {
            throw CliException.usage("give the tenant's <name>, or --clear");
        }
    }

    @Override
    protected void execute(Session s) {
        send(s, clear ? "DELETE" : "PUT", ApiPaths.TENANT_DISPLAY_NAME, clear ? null : new DisplayNameSet(name),
                tenant -> TenantShow.print(ctx, tenant));
    }
}
