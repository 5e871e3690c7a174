package dev.backplane.kernel.mcp;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** MCP's log levels (RFC 5424 severities), least severe first, so {@code ordinal()} orders them. */
enum McpLogLevel {
    DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY;

    /** The level as the wire spells it ({@code debug} ... {@code emergency}). */
    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a message at this level passes a client's minimum {@code floor}. */
    boolean atLeast(McpLogLevel floor) {
        return compareTo(floor) >= 0;
    }

    static Optional<McpLogLevel> parse(String wire) {
        return Arrays.stream(values()).filter(l -> l.wireName().equals(wire)).findFirst();
    }

    /** The levels' wire names, for the error that names them. */
    static java.util.List<String> wireNames() {
        return Arrays.stream(values()).map(McpLogLevel::wireName).toList();
    }
}
