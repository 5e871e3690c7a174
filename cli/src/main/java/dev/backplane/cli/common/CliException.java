package dev.backplane.cli.common;

/** A command failed; {@link #exitCode()} is what the process exits with, the message what the user reads. */
public class CliException extends RuntimeException {

    private final int exitCode;
    private final boolean reported;

    public CliException(int exitCode, String message) {
        this(exitCode, message, null, false);
    }

    public CliException(int exitCode, String message, Throwable cause) {
        this(exitCode, message, cause, false);
    }

    private CliException(int exitCode, String message, Throwable cause, boolean reported) {
        super(message, cause);
        this.exitCode = exitCode;
        this.reported = reported;
    }

    public int exitCode() {
        return exitCode;
    }

    /** Whether the command already told the user what happened, so nothing more is printed. */
    public boolean reported() {
        return reported;
    }

    /**
     * Ends the command with {@code exitCode} when its output already said why — a parked call is an
     * outcome, not an error, so it gets no second {@code error:} line.
     */
    public static CliException alreadyReported(int exitCode, String message) {
        return new CliException(exitCode, message, null, true);
    }

    public static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message);
    }

    public static CliException failed(String message) {
        return new CliException(ExitCodes.FAILED, message);
    }
}
