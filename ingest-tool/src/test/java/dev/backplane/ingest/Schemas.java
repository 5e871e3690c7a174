package dev.backplane.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;

/** Compiles params schemas the way the kernel does (networknt, draft 2020-12). */
final class Schemas {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    private Schemas() {
    }

    /** Compiles every keyword and every {@code $ref} now (networknt resolves refs lazily otherwise). */
    static JsonSchema compile(String schema) {
        JsonSchema compiled = FACTORY.getSchema(tree(schema));
        compiled.initializeValidators();
        return compiled;
    }

    static Set<ValidationMessage> validate(String schema, String instance) {
        return compile(schema).validate(tree(instance));
    }

    static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
