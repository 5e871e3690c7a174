package dev.backplane.kernel.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Everything logged in the test JVM, one line a record: level, logger, the formatted message, the raw parameters
 * and the stack trace — all a leak sweep has to search for a value that must never be logged.
 */
public final class LogCapture extends Handler {

    private final SimpleFormatter formatter = new SimpleFormatter();
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private LogCapture() {
        setLevel(Level.ALL);
    }

    /** Captures what reaches the root logger until the kernel set-up is closed. */
    public static LogCapture onRootLogger(KernelSetup setup) {
        LogCapture capture = new LogCapture();
        Logger.getLogger("").addHandler(capture);
        setup.closeAfter(() -> Logger.getLogger("").removeHandler(capture));
        return capture;
    }

    /** Captures what reaches the root logger until {@link #detach()}: for tests without a kernel. */
    public static LogCapture onRootLogger() {
        LogCapture capture = new LogCapture();
        Logger.getLogger("").addHandler(capture);
        return capture;
    }

    /** Stops capturing (the lines stay readable). */
    public void detach() {
        Logger.getLogger("").removeHandler(this);
    }

    /** The records captured so far, oldest first. */
    public List<String> lines() {
        return lines;
    }

    @Override
    public void publish(LogRecord r) {
        StringBuilder b = new StringBuilder().append(r.getLevel()).append(' ').append(r.getLoggerName()).append(": ");
        try {
            b.append(formatter.formatMessage(r));
        } catch (RuntimeException e) {
            b.append(r.getMessage());
        }
        if (r.getParameters() != null && r.getParameters().length > 0) {
            b.append(" [params ").append(Arrays.deepToString(r.getParameters())).append(']');
        }
        if (r.getThrown() != null) {
            StringWriter trace = new StringWriter();
            r.getThrown().printStackTrace(new PrintWriter(trace));
            b.append('\n').append(trace);
        }
        lines.add(b.toString());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
