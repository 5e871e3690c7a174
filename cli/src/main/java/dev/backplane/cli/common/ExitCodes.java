package dev.backplane.cli.common;

/** The CLI's exit codes, in one place. */
public final class ExitCodes {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int DENIED = 3;
    public static final int AWAITING_APPROVAL = 4;
    public static final int UNREACHABLE = 5;
    public static final int NOT_LOGGED_IN = 6;

    private ExitCodes() {
    }
}
