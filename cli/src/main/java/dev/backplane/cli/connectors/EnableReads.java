package dev.backplane.cli.connectors;

import picocli.CommandLine.Command;

/** enable-reads */
@Command(name = "enable-reads", description = "Enable every read-class (GET/HEAD) operation [tenant_admin].")
final class EnableReads extends Transition {
    String action() {
        return "enable-reads";
    }

    String consequence() {
        return "every read-class operation is enabled; writes stay default-deny";
    }
}
