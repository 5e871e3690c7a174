package dev.backplane.plugin.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PluginApiVersionTest {

    @Test
    void parsesMajorAndMinor() {
        assertEquals(new PluginApiVersion(1, 2), PluginApiVersion.parse("1.2"));
        assertEquals(new PluginApiVersion(3, 0), PluginApiVersion.parse(" 3 "));
    }

    @Test
    void refusesMalformedText() {
        assertThrows(IllegalArgumentException.class, () -> PluginApiVersion.parse("1.2.3"));
        assertThrows(IllegalArgumentException.class, () -> PluginApiVersion.parse("one"));
        assertThrows(IllegalArgumentException.class, () -> PluginApiVersion.parse(""));
    }

    @Test
    void acceptsSameMajorWithOlderOrEqualMinorOnly() {
        PluginApiVersion kernel = new PluginApiVersion(1, 3);
        assertTrue(kernel.accepts(new PluginApiVersion(1, 0)));
        assertTrue(kernel.accepts(new PluginApiVersion(1, 3)));
        assertFalse(kernel.accepts(new PluginApiVersion(1, 4)));
        assertFalse(kernel.accepts(new PluginApiVersion(2, 0)));
        assertFalse(kernel.accepts(new PluginApiVersion(0, 9)));
    }

    @Test
    void errorCodesUseTheWireSpelling() {
        assertEquals("connector_tls_verify_failed", ErrorCode.CONNECTOR_TLS_VERIFY_FAILED.wireName());
    }
}
