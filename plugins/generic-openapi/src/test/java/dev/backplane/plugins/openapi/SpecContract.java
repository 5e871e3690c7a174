package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * A vendor spec's own schemas as the contract for a replay test: every answer a replay server gives is
 * checked against the operation's 2xx response schema, and every write it receives against the
 * request-body schema, so hand-built fixtures cannot drift from the real API. Reads Swagger 2.0
 * ({@code definitions}, body parameters) and OpenAPI 3.x ({@code components}, {@code requestBody},
 * {@code content}); OpenAPI 3.0's {@code nullable} is honoured by widening the type to allow null.
 */
final class SpecContract {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonNode spec;
    private final boolean openApi3;
    private final SpecificationVersion dialect;

    private SpecContract(JsonNode spec) {
        this.spec = spec;
        this.openApi3 = spec.has("openapi");
        this.dialect = spec.path("openapi").asText().startsWith("3.1") ? SpecificationVersion.DRAFT_2020_12
                : SpecificationVersion.DRAFT_4;
    }

    /** Reads a JSON or YAML spec file. */
    static SpecContract read(Path file) throws IOException {
        String name = file.getFileName().toString();
        JsonNode tree = name.endsWith(".yaml") || name.endsWith(".yml") ? new YAMLMapper().readTree(file.toFile())
                : JSON.readTree(file.toFile());
        return new SpecContract(tree);
    }

    JsonNode spec() {
        return spec;
    }

    /** Returns {@code body} after checking it against the operation's first 2xx response schema. */
    String response(String method, String pathTemplate, String body) {
        JsonNode responses = operation(method, pathTemplate).path("responses");
        for (Iterator<Map.Entry<String, JsonNode>> it = responses.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().startsWith("2")) {
                JsonNode schema = schemaOf(deref(e.getValue()));
                if (!schema.isMissingNode()) {
                    check(schema, parse(body), "response of " + method + " " + pathTemplate);
                    return body;
                }
            }
        }
        throw new AssertionError(method + " " + pathTemplate + " has no 2xx response schema in the spec");
    }

    /** Checks a request body the replay server received against the operation's request-body schema. */
    void request(String method, String pathTemplate, byte[] body) {
        JsonNode op = operation(method, pathTemplate);
        JsonNode schema = openApi3 ? schemaOf(deref(op.path("requestBody"))) : bodyParameter(op);
        if (schema.isMissingNode()) {
            throw new AssertionError(method + " " + pathTemplate + " takes no JSON request body in the spec");
        }
        check(schema, parse(new String(body, StandardCharsets.UTF_8)), "request of " + method + " " + pathTemplate);
    }

    private JsonNode operation(String method, String pathTemplate) {
        JsonNode op = spec.path("paths").path(pathTemplate).path(method.toLowerCase(java.util.Locale.ROOT));
        if (op.isMissingNode()) {
            throw new AssertionError(method + " " + pathTemplate + " is not in the spec");
        }
        return op;
    }

    private JsonNode bodyParameter(JsonNode op) {
        for (JsonNode p : op.path("parameters")) {
            JsonNode param = deref(p);
            if (param.path("in").asText().equals("body")) {
                return param.path("schema");
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** Swagger 2 puts the schema on the response; OpenAPI 3 under a JSON media type of its content. */
    private static JsonNode schemaOf(JsonNode responseOrBody) {
        if (responseOrBody.has("schema")) {
            return responseOrBody.path("schema");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = responseOrBody.path("content").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> media = it.next();
            if (media.getKey().contains("json") && media.getValue().has("schema")) {
                return media.getValue().path("schema");
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** Follows a local {@code $ref} (to a shared response, parameter or request body). */
    private JsonNode deref(JsonNode node) {
        String ref = node.path("$ref").asText("");
        return ref.startsWith("#/") ? deref(spec.at(ref.substring(1))) : node;
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + e.getMessage());
        }
    }

    private void check(JsonNode schema, JsonNode instance, String what) {
        ObjectNode root = schema.deepCopy();
        if (openApi3) {
            JsonNode components = spec.path("components").deepCopy();
            root.set("components", components);
        } else {
            root.set("definitions", spec.path("definitions").deepCopy());
        }
        if (openApi3 && dialect == SpecificationVersion.DRAFT_4) {
            allowNulls(root);
        }
        var errors = SchemaRegistry.withDefaultDialect(dialect).getSchema(root).validate(instance);
        assertThat(errors).as(what + " matches the vendor spec").isEmpty();
    }

    /** OpenAPI 3.0's {@code nullable: true} means the JSON Schema type also admits null. */
    private static void allowNulls(JsonNode node) {
        if (node instanceof ObjectNode o) {
            if (o.path("nullable").asBoolean(false) && o.path("type").isTextual()) {
                ArrayNode types = JSON.createArrayNode().add(o.path("type").asText()).add("null");
                o.set("type", types);
            }
            o.forEach(SpecContract::allowNulls);
        } else if (node instanceof ArrayNode a) {
            a.forEach(SpecContract::allowNulls);
        }
    }
}
