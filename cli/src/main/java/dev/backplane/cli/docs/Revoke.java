package dev.backplane.cli.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import picocli.CommandLine.Command;

/** {@code svc docs collections revoke} (an extension of SPEC's verbs) */
@Command(name = "revoke", description = "Revoke svc-docs:<key> from --tenant [platform_admin].")
final class Revoke extends GrantCommand {
    @Override
    protected void execute(Session s) {
        JsonNode r = call(s, "DELETE", grantPath());
        print(r, () -> ctx.out().println("revoked " + r.path("revoked").asText() + " from tenant "
                + r.path("tenant_id").asText()));
    }
}
