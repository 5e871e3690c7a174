package dev.backplane.plugins.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The {@link SpecContract} check for request bodies sent as {@code application/x-www-form-urlencoded}
 * (Proxmox VE and Hetzner Robot take their write parameters so). A form carries only text, so the body a
 * replay server receives is read as the JSON object of its fields — each value typed by the property's
 * schema (integer, number, boolean; a repeated key for an array, whether the schema names it {@code key}
 * or {@code key[]}) — and that object is checked against the operation's form schema exactly as a JSON
 * body would be. A value that does not parse as its type stays text and so fails the check.
 */
final class FormContract {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FORM = "application/x-www-form-urlencoded";

    private final JsonNode spec;
    private final SpecContract asJson;

    private FormContract(JsonNode spec, SpecContract asJson) {
        this.spec = spec;
        this.asJson = asJson;
    }

    /**
     * The form contract of {@code contract}'s spec: a copy of it in which every form request body is also
     * offered as JSON, so {@link SpecContract#request} checks it (the copy is written under {@code dir}).
     */
    static FormContract of(SpecContract contract, Path dir) throws IOException {
        JsonNode copy = contract.spec().deepCopy();
        for (JsonNode path : copy.path("paths")) {
            for (JsonNode op : path) {
                JsonNode content = op.path("requestBody").path("content");
                if (content instanceof ObjectNode c && c.has(FORM)) {
                    c.set("application/json", c.get(FORM));
                }
            }
        }
        Path file = Files.createTempFile(dir, "form-contract", ".json");
        JSON.writeValue(file.toFile(), copy);
        return new FormContract(contract.spec(), SpecContract.read(file));
    }

    /**
     * Checks a received form body against the operation's form schema; returns the typed fields.
     *
     * @throws AssertionError when the body does not match (a replay handler's contract violation)
     */
    JsonNode request(String method, String pathTemplate, byte[] body) throws IOException {
        JsonNode schema = deref(spec.path("paths").path(pathTemplate).path(method.toLowerCase(Locale.ROOT))
                .path("requestBody").path("content").path(FORM).path("schema"));
        if (schema.isMissingNode()) {
            throw new AssertionError(method + " " + pathTemplate + " takes no form body in the spec");
        }
        ObjectNode fields = JsonNodeFactory.instance.objectNode();
        String text = new String(body, StandardCharsets.UTF_8);
        for (String pair : text.isEmpty() ? new String[0] : text.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            String name = key.endsWith("[]") && !schema.path("properties").has(key) ? key.substring(0, key.length() - 2)
                    : key;
            JsonNode property = deref(schema.path("properties").path(name));
            if (property.path("type").asText().equals("array")) {
                JsonNode existing = fields.get(name);
                ArrayNode items = existing instanceof ArrayNode a ? a : fields.putArray(name);
                items.add(typed(deref(property.path("items")), value));
            } else {
                fields.set(name, typed(property, value));
            }
        }
        asJson.request(method, pathTemplate, JSON.writeValueAsBytes(fields));
        return fields;
    }

    private JsonNode typed(JsonNode schema, String value) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        try {
            return switch (schema.path("type").asText()) {
                case "integer" -> f.numberNode(Long.parseLong(value));
                case "number" -> f.numberNode(Double.parseDouble(value));
                case "boolean" -> switch (value.toLowerCase(Locale.ROOT)) {
                    case "true", "1" -> f.booleanNode(true);
                    case "false", "0" -> f.booleanNode(false);
                    default -> f.textNode(value);
                };
                default -> f.textNode(value);
            };
        } catch (NumberFormatException e) {
            return f.textNode(value);
        }
    }

    private JsonNode deref(JsonNode node) {
        String ref = node.path("$ref").asText("");
        return ref.startsWith("#/") ? deref(spec.at(ref.substring(1))) : node;
    }
}
