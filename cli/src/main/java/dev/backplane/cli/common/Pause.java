package dev.backplane.cli.common;

import java.time.Duration;

/** The waits of a command that polls or reconnects: an interrupt (Ctrl-C) ends the command with a message. */
public final class Pause {

    private Pause() {
    }

    /**
     * Sleeps for {@code d}; when interrupted, keeps the thread's interrupt flag and fails with
     * {@code interrupted} as the message (exit 1).
     */
    public static void sleep(Duration d, String interrupted) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed(interrupted);
        }
    }
}
