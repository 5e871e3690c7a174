package dev.backplane.cli.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Render;

/** grant / revoke: the tenant is the shared --tenant option (the platform_admin acts on that tenant). */
abstract class GrantCommand extends KeyCommand {

    private final String method;
    private final Render human;

    /** {@code method} on the collection's grant of that tenant, the answer shown through {@code human}. */
    GrantCommand(String method, Render human) {
        this.method = method;
        this.human = human;
    }

    @Override
    protected void validate() {
        if (options.tenant() == null) {
            throw CliException.usage("name the tenant with --tenant <uuid>");
        }
    }

    @Override
    protected void execute(Session s) {
        JsonNode r = call(s, method, "/grants/" + options.tenant());
        print(r, () -> human.print(ctx, r));
    }
}
