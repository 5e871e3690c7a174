package dev.backplane.kernel.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.networknt.schema.Schema;
import dev.backplane.kernel.util.JsonSchemas;
import dev.backplane.kernel.util.JsonMapping;
import java.util.List;
import java.util.Map;

/**
 * Validates params against an operation's JSON Schema (draft 2020-12). Compiled schemas are cached by
 * the schema's own text, not by connector and operation id: two tenants' connectors of one id, or a
 * re-ingest that changed an operation's schema, can never be validated against a schema that is not
 * theirs (a cache keyed by id served the first one it saw). The cache is bounded by the schemas' text size
 * ({@link #MAX_SCHEMA_CHARS} in all), least used first out.
 */
final class ParamsValidator {

    /** Characters of schema text the compiled cache may hold (a compiled schema costs a few times its text). */
    static final long MAX_SCHEMA_CHARS = 32L * 1024 * 1024;
    private final Cache<String, Schema> compiled = Caffeine.newBuilder().maximumWeight(MAX_SCHEMA_CHARS)
            .weigher((String text, Schema schema) -> text.length()).recordStats().build();

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
        Schema schema = compiled.get(schemaText,
                text -> JsonSchemas.compile(JsonMapping.tree(text, "schema of " + what)));
        JsonNode node = JsonMapping.mapper().valueToTree(params);
        return JsonSchemas.problems(schema, node);
    }
}
