package dev.backplane.kernel.audit.integrity;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

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

    /** The columns of a row's content, sorted as the canonical form writes them. */
    private static final List<String> COLUMNS = List.copyOf(new TreeSet<>(List.of("id", "tenant_id", "occurred_at",
            "principal", "principal_kind", "op_class", "op_id", "connector_id", "target", "target_id", "result_status",
            "error_code", "duration_ms", "session_id", "parent_audit_id", "work_ref", "params_hash", "approval_request_id",
            "extras")));
    private static final byte[][] KEYS = COLUMNS.stream().map(k -> ("\"" + k + "\":").getBytes(StandardCharsets.UTF_8))
            .toArray(byte[][]::new);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.UTF_8);
    private static final JsonStringEncoder STRINGS = JsonStringEncoder.getInstance();

    /**
     * The canonical bytes of a row's content. A row of exactly the audit columns, with text, whole-number and null
     * values and a map of extras, is written directly (verify's hot path); anything else through Jackson. Both give
     * the same bytes ({@code AuditChainTest} compares them).
     */
    public static byte[] canonical(Map<String, Object> content) {
        if (content.size() == COLUMNS.size() && content.keySet().containsAll(COLUMNS)) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(640);
            for (int i = 0; i < KEYS.length; i++) {
                out.write(i == 0 ? '{' : ',');
                out.writeBytes(KEYS[i]);
                Object v = content.get(COLUMNS.get(i));
                if (v == null) {
                    out.writeBytes(NULL);
                } else if (v instanceof String text && !hasSurrogate(text)) {
                    out.write('"');
                    out.writeBytes(STRINGS.quoteAsUTF8(text));
                    out.write('"');
                } else if (v instanceof Integer || v instanceof Long) {
                    out.writeBytes(v.toString().getBytes(StandardCharsets.US_ASCII));
                } else if (v instanceof Map<?, ?> map && map.isEmpty()) {
                    out.write('{');
                    out.write('}');
                } else if (v instanceof Map<?, ?> map) {
                    out.writeBytes(generic(map));
                } else {
                    return generic(content);
                }
            }
            out.write('}');
            return out.toByteArray();
        }
        return generic(content);
    }

    /** Jackson's byte writer escapes a surrogate pair as two {@code \\u} escapes; the direct writer leaves such text to it. */
    private static boolean hasSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** The canonical bytes as Jackson writes them (keys of every object sorted). */
    static byte[] generic(Object value) {
        try {
            return CANONICAL.writeValueAsBytes(value);
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
