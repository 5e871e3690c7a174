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

    /*
     * The exit-code list in the help of the verbs that dispatch an operation (picocli exitCodeList;
     * constants so that annotations can name them). A parked call is not a failure: it is said once,
     * with the approval request to act on, and exits 4.
     */
    public static final String HELP_HEADING = "%nExit codes:%n";
    public static final String HELP_OK = "0:ok";
    public static final String HELP_FAILED = "1:error (the operation or the request failed)";
    public static final String HELP_USAGE = "2:usage";
    public static final String HELP_DENIED = "3:denied by policy or role";
    public static final String HELP_PARKED = "4:parked for approval - not an error: the approval request is printed; "
            + "another approver runs svc approvals approve <id>";
    public static final String HELP_UNREACHABLE = "5:backplane unreachable";
    public static final String HELP_NOT_LOGGED_IN = "6:not logged in";

    private ExitCodes() {
    }
}
