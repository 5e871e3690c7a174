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
 * theirs (a cache keyed by id served the first one it saw). The cache is bounded by the schemas' text size
 * ({@link #MAX_SCHEMA_CHARS} in all), least used first out.
 */
final class ParamsValidator {

    private final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    /** Characters of schema text the compiled cache may hold (a compiled schema costs a few times its text). */
    static final long MAX_SCHEMA_CHARS = 32L * 1024 * 1024;
    private final Cache<String, JsonSchema> compiled = Caffeine.newBuilder().maximumWeight(MAX_SCHEMA_CHARS)
            .weigher((String text, JsonSchema schema) -> text.length()).recordStats().build();

    /** Reports the compiled-schema cache as {@code cache_*} series named {@code dispatch.schemas}. */
    void meterInto(io.micrometer.core.instrument.MeterRegistry registry) {
        io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics.monitor(registry, compiled, "dispatch.schemas");
    }

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
