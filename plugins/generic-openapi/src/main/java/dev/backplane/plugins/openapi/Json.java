package dev.backplane.plugins.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Optional;

/** The plugin's one Jackson mapper (packed in the plugin jar) and the few calls made on it. */
final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static JsonNode tree(String text) throws JsonProcessingException {
        return MAPPER.readTree(text);
    }

    /** Parses JSON into plain Java values (Map, List, String, Number, Boolean, null); empty when not JSON. */
    static Optional<Parsed> parse(byte[] body) {
        try {
            return Optional.of(new Parsed(MAPPER.readValue(body, Object.class)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static JsonNode treeOf(byte[] body) {
        try {
            JsonNode tree = MAPPER.readTree(body);
            return tree == null ? MAPPER.missingNode() : tree;
        } catch (IOException e) {
            return MAPPER.missingNode();
        }
    }

    static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("value cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    static String text(Object value) {
        return new String(bytes(value), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A parsed JSON value, which may itself be JSON null. */
    record Parsed(Object value) {
    }
}
