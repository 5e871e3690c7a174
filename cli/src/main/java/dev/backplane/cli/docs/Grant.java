package dev.backplane.cli.docs;

import picocli.CommandLine.Command;

/** {@code svc docs collections grant} (an extension of SPEC's verbs) */
@Command(name = "grant", description = "Grant svc-docs:<key> of a global collection to --tenant [platform_admin].")
final class Grant extends GrantCommand {
    Grant() {
        super("POST", (ctx, r) -> ctx.out().println("granted " + r.path("capability").asText() + " to tenant "
                + r.path("tenant_id").asText()));
    }
}
