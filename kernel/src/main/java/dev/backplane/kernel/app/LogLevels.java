package dev.backplane.kernel.app;

import java.util.Locale;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code log.level}: the words operators know from other stacks (ERROR, WARN, INFO, DEBUG, TRACE) and
 * java.util.logging's own names, mapped onto java.util.logging, which the kernel logs through (System.Logger and
 * Helidon's LogConfig both end there). Loggers the kernel holds on purpose keep their level: the PostgreSQL driver
 * stays at INFO at the finest (persistence.Database: below it the driver logs bind values, secrets among them).
 */
final class LogLevels {

    private static final Map<String, Level> WORDS = Map.ofEntries(
            Map.entry("OFF", Level.OFF), Map.entry("ERROR", Level.SEVERE), Map.entry("SEVERE", Level.SEVERE),
            Map.entry("WARN", Level.WARNING), Map.entry("WARNING", Level.WARNING), Map.entry("INFO", Level.INFO),
            Map.entry("DEBUG", Level.FINE), Map.entry("FINE", Level.FINE), Map.entry("FINER", Level.FINER),
            Map.entry("TRACE", Level.FINEST), Map.entry("FINEST", Level.FINEST), Map.entry("ALL", Level.ALL));
    /** The driver's logger, held so java.util.logging (which keeps loggers weakly) does not forget its level. */
    private static final Logger DRIVER = Logger.getLogger("org.postgresql");

    private LogLevels() {
    }

    /** The level a {@code log.level} word names (any case). */
    static Level parse(String word) {
        Level level = WORDS.get(word.trim().toUpperCase(Locale.ROOT));
        if (level == null) {
            throw new KernelConfig.ConfigException("log.level must be one of ERROR, WARN, INFO, DEBUG, TRACE (or "
                    + "java.util.logging's OFF, SEVERE, WARNING, FINE, FINER, FINEST, ALL), got '" + word + "'");
        }
        return level;
    }

    /**
     * Sets the root logger and its handlers to {@code level} (a handler filters too: the console handler's own
     * INFO would drop DEBUG lines). Loggers with a level of their own (logging.properties' quieter libraries) keep it;
     * the PostgreSQL driver is held at INFO or coarser.
     */
    static void apply(Level level) {
        Logger root = Logger.getLogger("");
        root.setLevel(level);
        for (Handler h : root.getHandlers()) {
            h.setLevel(level);
        }
        Level driver = DRIVER.getLevel();
        if (driver == null || driver.intValue() < Level.INFO.intValue()) {
            DRIVER.setLevel(Level.INFO);
        }
    }
}
