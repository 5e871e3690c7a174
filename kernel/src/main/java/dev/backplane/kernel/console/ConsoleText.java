package dev.backplane.kernel.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.backplane.kernel.util.JsonMapping;

/** Values as pages print them. */
final class ConsoleText {

    private ConsoleText() {
    }

    /** {@code value} as indented JSON (params, extras). */
    static String pretty(Object value) {
        try {
            return JsonMapping.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a value read from the database does not serialize", e);
        }
    }
}
