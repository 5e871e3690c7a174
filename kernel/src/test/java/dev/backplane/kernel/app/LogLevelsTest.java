package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** {@code log.level}: the accepted words, a bad one stops the start, and DEBUG never opens the PostgreSQL driver's log. */
class LogLevelsTest {

    /** Held: java.util.logging keeps loggers weakly. */
    private static final Logger DRIVER = Logger.getLogger("org.postgresql");

    @Test
    void theWordsMapOntoJavaUtilLogging() {
        assertThat(KernelConfig.load(Optional.empty(), Map.of()).logLevel()).isEqualTo(Level.INFO);
        Map.of("ERROR", Level.SEVERE, "warn", Level.WARNING, "WARNING", Level.WARNING, "Info", Level.INFO,
                "DEBUG", Level.FINE, "fine", Level.FINE, "TRACE", Level.FINEST, "FINEST", Level.FINEST, "OFF", Level.OFF)
                .forEach((word, level) -> assertThat(KernelConfig.load(Optional.empty(), Map.of("SVC_LOG_LEVEL", word))
                        .logLevel()).as(word).isEqualTo(level));
        assertThat(catchThrowableOfType(KernelConfig.ConfigException.class,
                () -> KernelConfig.load(Optional.empty(), Map.of("SVC_LOG_LEVEL", "verbose"))))
                .hasMessageContaining("log.level").hasMessageContaining("'verbose'");
    }

    @Test
    void debugOpensTheKernelsLogButNotTheDatabaseDriversBindValues() {
        Logger root = Logger.getLogger("");
        Level rootBefore = root.getLevel();
        Level driverBefore = DRIVER.getLevel();
        Map<Handler, Level> handlersBefore = new java.util.HashMap<>();
        for (Handler h : root.getHandlers()) {
            handlersBefore.put(h, h.getLevel());
        }
        try {
            DRIVER.setLevel(null); // as if nothing had set it yet (persistence.Database holds it at INFO when loaded)
            LogLevels.apply(KernelConfig.load(Optional.empty(), Map.of("SVC_LOG_LEVEL", "DEBUG")).logLevel());
            assertThat(Logger.getLogger("dev.backplane.kernel.dispatch").isLoggable(Level.FINE)).isTrue();
            assertThat(root.getHandlers()).allSatisfy(h -> assertThat(h.getLevel()).isEqualTo(Level.FINE));
            assertThat(DRIVER.isLoggable(Level.FINE)).as("the driver logs bind values below INFO").isFalse();
            assertThat(DRIVER.isLoggable(Level.FINEST)).isFalse();
            assertThat(DRIVER.isLoggable(Level.INFO)).isTrue();

            DRIVER.setLevel(Level.WARNING); // an operator's coarser level for the driver stays
            LogLevels.apply(Level.ALL);
            assertThat(DRIVER.getLevel()).isEqualTo(Level.WARNING);
        } finally {
            root.setLevel(rootBefore);
            DRIVER.setLevel(driverBefore);
            handlersBefore.forEach(Handler::setLevel);
        }
    }
}
