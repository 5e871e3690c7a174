package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent tools' JSON Schemas (as the MCP endpoint publishes them) as LangChain4j tool parameters,
 * so a model sees the same argument shapes over both surfaces. Covers what those schemas use: objects,
 * strings (and enums), integers, numbers, booleans, arrays; a nullable type is its non-null type.
 */
final class ToolSchemas {

    private ToolSchemas() {
    }

    static JsonObjectSchema object(JsonNode schema) {
        JsonObjectSchema.Builder b = JsonObjectSchema.builder();
        if (schema.hasNonNull("description")) {
            b.description(schema.get("description").asText());
        }
        schema.path("properties").properties().forEach(p -> b.addProperty(p.getKey(), element(p.getValue())));
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        if (!required.isEmpty()) {
            b.required(required);
        }
        if (schema.has("additionalProperties") && schema.get("additionalProperties").isBoolean()) {
            b.additionalProperties(schema.get("additionalProperties").asBoolean());
        }
        return b.build();
    }

    private static JsonSchemaElement element(JsonNode s) {
        String description = s.hasNonNull("description") ? s.get("description").asText() : null;
        if (s.has("enum")) {
            List<String> values = new ArrayList<>();
            s.get("enum").forEach(v -> values.add(v.asText()));
            return JsonEnumSchema.builder().enumValues(values).description(description).build();
        }
        return switch (type(s)) {
            case "object" -> object(s);
            case "array" -> JsonArraySchema.builder().description(description)
                    .items(s.has("items") ? element(s.get("items")) : JsonStringSchema.builder().build()).build();
            case "integer" -> JsonIntegerSchema.builder().description(description).build();
            case "number" -> JsonNumberSchema.builder().description(description).build();
            case "boolean" -> JsonBooleanSchema.builder().description(description).build();
            default -> JsonStringSchema.builder().description(description).build();
        };
    }

    private static String type(JsonNode s) {
        JsonNode t = s.path("type");
        if (t.isArray()) {
            for (JsonNode each : t) {
                if (!each.asText().equals("null")) {
                    return each.asText();
                }
            }
        }
        return t.asText("string");
    }
}
