package dev.backplane.ingest;

import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Schema;

/** Questions about OpenAPI schema models that hold for 3.0 and 3.1 alike. */
final class SchemaShapes {

    private SchemaShapes() {
    }

    static boolean isArray(Schema<?> schema) {
        return schema instanceof ArraySchema
                || "array".equals(schema.getType())
                || (schema.getTypes() != null && schema.getTypes().contains("array"));
    }

    /** The component a {@code $ref} schema names, or null. */
    static String refName(Schema<?> schema) {
        return schema == null ? null : LocalRefs.componentName(schema.get$ref(), LocalRefs.SCHEMAS);
    }
}
