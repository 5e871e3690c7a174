package dev.backplane.kernel.audit;

import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.JsonMapping;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The size bound of an audit row's {@code extras}, applied where rows are written ({@link AuditLog}), so no
 * caller can write an unbounded row and no audit read can pull one. Extras up to {@link #MAX_BYTES} (as
 * JSON) are kept as given. Above it, each top-level value up to {@link #MAX_VALUE_BYTES} is kept, every
 * larger one becomes its {@link #digest} (sha256 and size), and {@code extras_truncated} says the row was
 * cut and carries the whole value's size and digest; if even that does not fit, only the marker is kept.
 */
public final class AuditExtras {

    /** The most bytes of JSON an audit row's extras hold. */
    public static final int MAX_BYTES = 8 * 1024;
    /** The most bytes of JSON one top-level value of cut extras keeps. */
    static final int MAX_VALUE_BYTES = 1024;
    /** The key of the marker on extras that were cut. */
    public static final String TRUNCATED = "extras_truncated";

    private AuditExtras() {
    }

    /** The JSON text of {@code extras} as an audit row stores it: within {@link #MAX_BYTES}. */
    static String json(Map<String, Object> extras) {
        String whole = JsonMapping.write(extras);
        int size = bytes(whole);
        if (size <= MAX_BYTES) {
            return whole;
        }
        Map<String, Object> cut = new LinkedHashMap<>();
        extras.forEach((key, value) -> {
            String v = JsonMapping.write(value);
            cut.put(key, bytes(v) <= MAX_VALUE_BYTES ? value : digestOfJson(v));
        });
        Map<String, Object> marker = Map.of("size_bytes", size, "sha256", Digests.sha256Hex(whole));
        cut.put(TRUNCATED, marker);
        String kept = JsonMapping.write(cut);
        return bytes(kept) <= MAX_BYTES ? kept : JsonMapping.write(Map.of(TRUNCATED, marker));
    }

    /**
     * What a record keeps of a value it must not hold: its sha256 (of the text itself for a string, else of
     * its JSON) and its size in bytes, so equal inputs are recognisable without being readable.
     */
    public static Map<String, Object> digest(Object value) {
        if (value instanceof String text) {
            return Map.of("sha256", Digests.sha256Hex(text), "size_bytes", bytes(text));
        }
        return digestOfJson(JsonMapping.write(value));
    }

    private static Map<String, Object> digestOfJson(String json) {
        return Map.of("sha256", Digests.sha256Hex(json), "size_bytes", bytes(json));
    }

    static int bytes(String text) {
        // UTF-8 length without allocating the bytes (a row's extras may be tens of MiB before they are cut)
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
