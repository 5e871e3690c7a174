package dev.backplane.cli.common;

import picocli.CommandLine;

/** Small helpers shared by commands. */
public final class Commands {

    private Commands() {
    }

    /** The root command: it holds the options every subcommand inherits. */
    public interface Root {
        GlobalOptions global();
    }

    /**
     * The global options given anywhere on the command line (they are inherited by every subcommand). A plain
     * call, not reflection: the first reflective call of a JVM spins method handles, about 30 ms of every command.
     */
    public static GlobalOptions global(CommandLine.Model.CommandSpec spec) {
        if (spec.root().userObject() instanceof Root root) {
            return root.global();
        }
        throw new IllegalStateException("the root command holds no global options: " + spec.root().userObject());
    }
}
