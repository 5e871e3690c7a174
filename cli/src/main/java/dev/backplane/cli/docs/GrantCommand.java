package dev.backplane.cli.docs;

import dev.backplane.cli.common.CliException;

/** grant / revoke: the tenant is the shared --tenant option (the platform_admin acts on that tenant). */
abstract class GrantCommand extends KeyCommand {
    @Override
    protected void validate() {
        if (options.tenant() == null) {
            throw CliException.usage("name the tenant with --tenant <uuid>");
        }
    }

    String grantPath() {
        return "/grants/" + options.tenant();
    }
}
