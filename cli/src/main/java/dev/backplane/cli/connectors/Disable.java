package dev.backplane.cli.connectors;

import picocli.CommandLine.Command;

/** {@code svc connector disable} */
@Command(name = "disable", description = "Disable a connector for your tenant [tenant_admin].")
final class Disable extends Transition {
    Disable() {
        super("none of its operations will be dispatchable (overrides are kept)");
    }
}
