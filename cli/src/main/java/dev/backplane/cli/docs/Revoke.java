package dev.backplane.cli.docs;

import picocli.CommandLine.Command;

/** {@code svc docs collections revoke} (an extension of SPEC's verbs) */
@Command(name = "revoke", description = "Revoke svc-docs:<key> from --tenant [platform_admin].")
final class Revoke extends GrantCommand {
    Revoke() {
        super("DELETE", (ctx, r) -> ctx.out().println("revoked " + r.path("revoked").asText() + " from tenant "
                + r.path("tenant_id").asText()));
    }
}
