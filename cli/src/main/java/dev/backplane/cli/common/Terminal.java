package dev.backplane.cli.common;

import java.io.Console;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * Where standard output goes: a terminal {@code columns} wide, where tables are fitted to the width (cells cut with an
 * ellipsis), or a pipe or file ({@code columns} 0), where every cell is printed whole so scripts see all of it.
 * A terminal's width is found out only when a table is printed (it may cost an {@code stty}), once.
 */
public final class Terminal {

    /** Output to a pipe or a file: nothing is cut. */
    public static final Terminal PIPE = new Terminal(0);

    static final int DEFAULT_COLUMNS = 80;

    private final IntSupplier width;
    private int columns = -1;

    /** A terminal of a known width ({@code 0}: a pipe). */
    public Terminal(int columns) {
        this(() -> columns);
    }

    private Terminal(IntSupplier width) {
        this.width = width;
    }

    /** The width tables are fitted to; 0 for a pipe or a file. */
    public synchronized int columns() {
        if (columns < 0) {
            columns = Math.max(0, width.getAsInt());
        }
        return columns;
    }

    /** Whether tables are fitted to a width. */
    public boolean fits() {
        return columns() > 0;
    }

    /**
     * This process's standard output: a terminal when the JVM's console is one (standard input and output both
     * attached to it), then {@code COLUMNS} when the shell exports it, else what {@code stty size} says of the
     * terminal, else 80 columns.
     */
    public static Terminal detect(Map<String, String> env) {
        if (!isTerminal()) {
            return PIPE;
        }
        String columns = env.get("COLUMNS");
        if (columns != null && columns.matches("\\d{1,4}") && Integer.parseInt(columns) > 0) {
            return new Terminal(Integer.parseInt(columns));
        }
        return new Terminal(Terminal::sttyColumns);
    }

    private static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            // JDK 22 and later return a console for redirected streams too, and say whether it is a terminal
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException e) {
            return true; // JDK 21: a console is only returned for a terminal
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    private static int sttyColumns() {
        try {
            Process stty = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try (InputStream in = stty.getInputStream()) {
                if (!stty.waitFor(500, TimeUnit.MILLISECONDS)) {
                    stty.destroyForcibly();
                    return DEFAULT_COLUMNS;
                }
                String[] rowsColumns = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+");
                int n = rowsColumns.length == 2 && rowsColumns[1].matches("\\d{1,4}") ? Integer.parseInt(rowsColumns[1]) : 0;
                return n > 0 ? n : DEFAULT_COLUMNS;
            }
        } catch (IOException e) {
            return DEFAULT_COLUMNS;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return DEFAULT_COLUMNS;
        }
    }
}
