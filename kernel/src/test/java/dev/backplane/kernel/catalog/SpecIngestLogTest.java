package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.ingest.IngestOptions;
import dev.backplane.ingest.SpecSource;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.testing.LogCapture;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** A bad spec is one WARNING line of the kernel's, not the parser's WARNING and SEVERE with their stack traces. */
class SpecIngestLogTest {

    @Test
    void aBadSpecIsOneWarningLine() throws Exception {
        List<Logger> held = applyLibraryLevelsOfTheKernelsLoggingProperties();
        LogCapture log = LogCapture.onRootLogger();
        try {
            IngestOptions options = new IngestOptions("broken", "1.x", "broken", List.of(), IngestOptions.DEFAULT_MAX_BYTES,
                    false, p -> { });
            assertThatThrownBy(() -> SpecIngestService.convert(List.of(SpecSource.text("broken.yaml",
                    "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get: {}\n  - broken\n")), options))
                    .isInstanceOfSatisfying(DomainException.class, e -> assertThat(e.code()).isEqualTo("spec_invalid"));
        } finally {
            log.detach();
            held.forEach(l -> l.setLevel(null));
        }
        assertThat(log.lines()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("WARNING dev.backplane.kernel.catalog.SpecIngestService: spec ingest of broken refused "
                        + "(spec_invalid): broken.yaml is not an OpenAPI")
                .contains("line 4, column 3").doesNotContain("\tat "));
    }

    /** What Main's LogConfig would set from logging.properties for the libraries (tests do not run Main). */
    private static List<Logger> applyLibraryLevelsOfTheKernelsLoggingProperties() throws Exception {
        Properties props = new Properties();
        try (InputStream in = SpecIngestLogTest.class.getResourceAsStream("/logging.properties")) {
            props.load(in);
        }
        List<Logger> held = new ArrayList<>();
        for (String key : props.stringPropertyNames()) {
            if (key.startsWith("io.swagger") && key.endsWith(".level")) {
                Logger logger = Logger.getLogger(key.substring(0, key.length() - ".level".length()));
                logger.setLevel(Level.parse(props.getProperty(key)));
                held.add(logger);
            }
        }
        assertThat(held).as("logging.properties quiets swagger-parser").isNotEmpty();
        return held;
    }
}
