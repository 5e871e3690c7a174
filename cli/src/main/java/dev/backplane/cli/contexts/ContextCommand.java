package dev.backplane.cli.contexts;

import picocli.CommandLine.Command;

/** {@code svc context}: the named backplanes (and identities, tenants and output defaults) this CLI knows. */
@Command(name = "context", description = {"Named contexts: a backplane, the login used there, a tenant and an output "
        + "default. svc login <url> makes or updates one and makes it current; --context <name> (or SVC_CONTEXT) picks "
        + "one for a command.",
        "svc login <url> --context <name> makes another, with a login of its own, so two principals can use one "
                + "backplane."},
        subcommands = {ContextList.class, ContextUse.class, ContextShow.class, ContextSet.class, ContextRename.class,
                ContextDelete.class})
public final class ContextCommand {
}
