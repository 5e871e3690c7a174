package dev.backplane.cli.connectors;

import picocli.CommandLine.Command;

/** {@code svc connector enable} */
@Command(name = "enable", description = "Enable a connector for your tenant [tenant_admin].")
final class Enable extends Transition {
    Enable() {
        super("its enabled operations become dispatchable for your tenant");
    }
}
