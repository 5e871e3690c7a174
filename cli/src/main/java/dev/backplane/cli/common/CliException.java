package dev.backplane.cli.common;

/** A command failed; {@link #exitCode()} is what the process exits with, the message what the user reads. */
public class CliException extends RuntimeException {

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    public static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message);
    }

    public static CliException failed(String message) {
        return new CliException(ExitCodes.FAILED, message);
    }
}
