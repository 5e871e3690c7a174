package dev.backplane.kernel.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.backplane.kernel.http.Json;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Validates params against an operation's JSON Schema (draft 2020-12); compiled schemas are cached. */
final class ParamsValidator {

    private final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private final Map<String, JsonSchema> compiled = new ConcurrentHashMap<>();

    /** The problems, one readable line each; empty when valid. */
    List<String> validate(String key, String schemaText, Map<String, Object> params) {
        JsonSchema schema = compiled.computeIfAbsent(key, k -> {
            try {
                return factory.getSchema(Json.mapper().readTree(schemaText));
            } catch (IOException e) {
                throw new IllegalStateException("schema of " + k + " is not JSON", e);
            }
        });
        JsonNode node = Json.mapper().valueToTree(params);
        Set<ValidationMessage> errors = schema.validate(node);
        return errors.stream().map(ValidationMessage::getMessage).sorted().toList();
    }
}
