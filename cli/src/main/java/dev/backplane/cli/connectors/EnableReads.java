package dev.backplane.cli.connectors;

import picocli.CommandLine.Command;

/** {@code svc connector enable-reads} */
@Command(name = "enable-reads", description = "Enable every read-class (GET/HEAD) operation [tenant_admin].")
final class EnableReads extends Transition {
    EnableReads() {
        super("every read-class operation is enabled; writes stay default-deny");
    }
}
