package dev.backplane.kernel.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validates params against an operation's JSON Schema (draft 2020-12). Compiled schemas are cached by
 * the schema's own text, not by connector and operation id: two tenants' connectors of one id, or a
 * re-ingest that changed an operation's schema, can never be validated against a schema that is not
 * theirs (a cache keyed by id served the first one it saw).
 */
final class ParamsValidator {

    private final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private final Cache<String, JsonSchema> compiled = Caffeine.newBuilder().maximumSize(20_000).build();

    /**
     * The problems, one readable line each; empty when valid.
     *
     * @param what the operation, for messages only
     */
    List<String> validate(String what, String schemaText, Map<String, Object> params) {
        JsonSchema schema = compiled.get(schemaText, text -> {
            try {
                return factory.getSchema(JsonMapping.mapper().readTree(text));
            } catch (IOException e) {
                throw new IllegalStateException("schema of " + what + " is not JSON", e);
            }
        });
        JsonNode node = JsonMapping.mapper().valueToTree(params);
        Set<ValidationMessage> errors = schema.validate(node);
        return errors.stream().map(ValidationMessage::getMessage).sorted().toList();
    }
}
