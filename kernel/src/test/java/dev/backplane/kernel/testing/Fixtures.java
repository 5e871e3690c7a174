package dev.backplane.kernel.testing;

/** Closing what a test class started, whichever parts of it started. */
public final class Fixtures {

    private Fixtures() {
    }

    /**
     * Closes each fixture that is not null, in order, and every one of them even when one fails; the first
     * failure is rethrown (unchecked) with the later ones suppressed.
     */
    public static void closeAll(AutoCloseable... fixtures) {
        RuntimeException failure = null;
        for (AutoCloseable fixture : fixtures) {
            if (fixture == null) {
                continue;
            }
            try {
                fixture.close();
            } catch (Exception e) {
                RuntimeException unchecked = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                if (failure == null) {
                    failure = unchecked;
                } else {
                    failure.addSuppressed(unchecked);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
