package dev.backplane.cli;

import dev.backplane.cli.common.CliContext;

/**
 * Base of every command that touches the outside world. Svc's command factory hands each one the
 * {@link CliContext} as it creates it, so a verb declares no constructor of its own.
 */
public abstract class CliCommand implements Runnable {

    /** Output, input and environment of this run; set before picocli calls {@link #run()}. */
    protected CliContext ctx;

    /** For commands picocli creates: Svc's factory sets {@link #ctx}. */
    protected CliCommand() {
    }

    /** For commands built by hand (the family verbs), which picocli does not create. */
    protected CliCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    final void useContext(CliContext context) {
        this.ctx = context;
    }
}
