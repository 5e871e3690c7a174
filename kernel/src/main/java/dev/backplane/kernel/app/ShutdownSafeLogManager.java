package dev.backplane.kernel.app;

import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * The JDK's {@link LogManager} closes every log handler from a shutdown hook of its own, racing the
 * kernel's graceful shutdown (another hook): what the drain logs (runs handed off, how long it took) was
 * lost. This manager ignores that early reset and flushes the handlers when the kernel has stopped
 * ({@link #flushAtExit()}). Installed by {@link Main} through {@code java.util.logging.manager} before the
 * first logger exists (bin/kernel and the image also pass it on the command line).
 */
public final class ShutdownSafeLogManager extends LogManager {

    @Override
    public void reset() {
        if (Thread.currentThread().getClass().getName().startsWith(LogManager.class.getName() + "$")) {
            return; // the JDK's own shutdown hook: the kernel's hook flushes when it is done
        }
        super.reset();
    }

    /** Flushes every handler of the root logger (the kernel's hook calls this last). */
    static void flushAtExit() {
        for (Handler h : Logger.getLogger("").getHandlers()) {
            h.flush();
        }
    }
}
