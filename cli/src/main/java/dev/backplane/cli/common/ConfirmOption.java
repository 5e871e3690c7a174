package dev.backplane.cli.common;

import picocli.CommandLine.Option;

/** {@code --confirm}, required by verbs that change or remove something hard to undo. */
public final class ConfirmOption {

    @Option(names = "--confirm", description = "confirm the change (required)") boolean confirm;

    /** Throws a usage error (nothing is sent) unless {@code --confirm} was given. */
    public void require(String what) {
        if (!confirm) {
            throw CliException.usage(what + "; re-run with --confirm");
        }
    }
}
