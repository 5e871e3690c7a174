package dev.backplane.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Compiles params schemas the way the kernel does (networknt, draft 2020-12). */
final class Schemas {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry FACTORY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private Schemas() {
    }

    /** Compiles every keyword and every {@code $ref} now (networknt resolves refs lazily otherwise). */
    static Schema compile(String schema) {
        Schema compiled = FACTORY.getSchema(tree(schema));
        compiled.initializeValidators();
        return compiled;
    }

    static List<com.networknt.schema.Error> validate(String schema, String instance) {
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
