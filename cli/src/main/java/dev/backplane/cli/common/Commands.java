package dev.backplane.cli.common;

import picocli.CommandLine;

/** Small helpers shared by commands. */
public final class Commands {

    private Commands() {
    }

    /** The global options given anywhere on the command line (they are inherited by every subcommand). */
    public static GlobalOptions global(CommandLine.Model.CommandSpec spec) {
        Object root = spec.root().userObject();
        try {
            return (GlobalOptions) root.getClass().getMethod("global").invoke(root);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("root command has no global options", e);
        }
    }
}
