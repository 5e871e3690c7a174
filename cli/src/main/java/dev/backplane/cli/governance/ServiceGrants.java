package dev.backplane.cli.governance;

import picocli.CommandLine.Command;

/** {@code svc service-principals grants} */
@Command(name = "grants", description = "Exact grants for service principals.",
        subcommands = {ServiceGrantCreate.class, ServiceGrantList.class, ServiceGrantRevoke.class,
                ServiceGrantShow.class})
final class ServiceGrants {
}
