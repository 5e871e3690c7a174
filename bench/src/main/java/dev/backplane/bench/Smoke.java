package dev.backplane.bench;

import java.lang.reflect.InvocationTargetException;

/**
 * Smoke mode ({@code -Dsvc.bench.smoke=true}, set by {@code bench/run <target> --smoke}): each bench runs at a tiny
 * size and fails when it did not do its work (no successful request, a missing figure), so {@code ./test} can check
 * that every bench still builds and runs. Outside smoke mode {@link #require} checks nothing: a full run prints its
 * figures, failures included, and goes on.
 */
public final class Smoke {

    /** Whether this run is a smoke run. */
    public static final boolean ON = Boolean.getBoolean("svc.bench.smoke");

    private Smoke() {
    }

    /** {@code full} in a full run, {@code smoke} in a smoke run. */
    public static int size(int full, int smoke) {
        return ON ? smoke : full;
    }

    /** In a smoke run, fails the bench with {@code what} unless {@code ok}. */
    public static void require(boolean ok, String what) {
        if (ON && !ok) {
            throw new IllegalStateException("smoke: " + what);
        }
    }

    /**
     * Runs the bench whose class is {@code args[0]} (its {@code main} with the other arguments) and exits: 0 when main
     * returned, 1 when it threw, so a thread a failed bench left behind cannot keep the run from ending (the
     * shutdown hooks still run: temporary directories, the embedded database).
     */
    public static void main(String[] args) throws Exception {
        int status = 0;
        try {
            Class.forName(args[0]).getMethod("main", String[].class)
                    .invoke(null, (Object) java.util.Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            System.out.flush();
            System.err.println("smoke: " + args[0] + " failed:");
            e.getCause().printStackTrace();
            status = 1;
        }
        System.exit(status);
    }
}
