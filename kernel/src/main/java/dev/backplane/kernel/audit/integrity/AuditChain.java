package dev.backplane.kernel.audit.integrity;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The hash chain's one rule. A row's link is {@code SHA-256(previous link || canonical(content))}, the first
 * row of a tenant's chain taking 32 zero bytes as its previous link. The canonical form is the row's content
 * as compact JSON with every object's keys sorted (extras included) and nulls written: one byte string per
 * row, whether the row was read from the database, an archive line or a stream message.
 */
public final class AuditChain {

    /** The previous link of a tenant's first row. */
    public static final byte[] GENESIS = new byte[32];
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectWriter CANONICAL = MAPPER.writer().with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() { };

    private AuditChain() {
    }

    /** The canonical bytes of a row's content. */
    public static byte[] canonical(Map<String, Object> content) {
        try {
            return CANONICAL.writeValueAsBytes(content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The link of a row whose previous row's link is {@code previous}. */
    public static byte[] link(byte[] previous, Map<String, Object> content) {
        MessageDigest sha = sha256();
        sha.update(previous);
        sha.update(canonical(content));
        return sha.digest();
    }

    /** A JSON object's text as a map (an empty map for null); a value that is not an object is kept as a string. */
    public static Map<String, Object> parseObject(String json) {
        if (json == null) {
            return Map.of();
        }
        try {
            return MAPPER.readValue(json, MAP);
        } catch (IOException e) {
            return Map.of("unparsed", json);
        }
    }

    /** A JSON line read as a map (archive lines). */
    public static Map<String, Object> parseLine(String line) throws IOException {
        return MAPPER.readValue(line, MAP);
    }

    /** A map written as one compact JSON line. */
    public static String line(Map<String, Object> values) {
        try {
            return MAPPER.writeValueAsString(values);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
