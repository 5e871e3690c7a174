package dev.backplane.kernel.util;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;

/**
 * JSON Schema draft 2020-12 the one way the kernel uses it (networknt json-schema-validator 2.x): compile a
 * schema, check it against the meta-schema, and list what an instance gets wrong as {@code <pointer>: <message>}
 * lines ({@code /} for the instance itself), sorted, so messages read the same wherever they surface.
 */
public final class JsonSchemas {

    private static final SchemaRegistry DRAFT_2020_12 = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final String META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

    private JsonSchemas() {
    }

    /** Compiles {@code schema}, resolving every keyword and {@code $ref} now rather than at first use. */
    public static Schema compile(JsonNode schema) {
        Schema compiled = DRAFT_2020_12.getSchema(schema);
        compiled.initializeValidators();
        return compiled;
    }

    /** The draft 2020-12 meta-schema (served from the library's own copy, never fetched). */
    public static Schema metaSchema() {
        return DRAFT_2020_12.getSchema(SchemaLocation.of(META_SCHEMA));
    }

    /** What {@code instance} gets wrong against {@code schema}, one readable line each; empty when valid. */
    public static List<String> problems(Schema schema, JsonNode instance) {
        return schema.validate(instance).stream().map(JsonSchemas::describe).sorted().toList();
    }

    /** {@code <instance pointer>: <message>}. */
    public static String describe(com.networknt.schema.Error e) {
        String at = e.getInstanceLocation().toString();
        return (at.isEmpty() ? "/" : at) + ": " + e.getMessage();
    }
}
