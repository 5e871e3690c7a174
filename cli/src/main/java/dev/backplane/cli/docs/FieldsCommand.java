package dev.backplane.cli.docs;

import static dev.backplane.cli.docs.DocCollectionsCommand.FILE_FIELDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.TextArgs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The fields of create and update: from --from-file (JSON or YAML), then the flags, which win. */
abstract class FieldsCommand extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<key>") String key;
    @Option(names = "--backend-type", paramLabel = "<type>", description = "how the backend is spoken to: corpus-http")
    String backendType;
    @Option(names = "--backend-ref", paramLabel = "<json|@file>",
            description = "JSON object, e.g. {\"url\": \"https://docs-search.example.com/search\"}; '{}' clears it")
    String backendRef;
    @Option(names = "--description", description = "what the collection holds") String description;
    @Option(names = "--from-file", paramLabel = "<file>", description = "JSON or YAML object with the fields "
            + "(backend_type, backend_ref, description, product, vendor, when_to_use); flags override it")
    Path fromFile;
    @Option(names = "--product", paramLabel = "<product>", split = ",",
            description = "product(s) the docs cover (repeatable or comma-separated)")
    List<String> product;
    @Option(names = "--vendor", description = "vendor of the documented products") String vendor;
    @Option(names = "--when-to-use", paramLabel = "<hint>", description = "when an agent should search it")
    String whenToUse;

    Map<String, Object> fields;

    @Override
    @SuppressWarnings("unchecked")
    protected void validate() {
        fields = new LinkedHashMap<>();
        if (fromFile != null) {
            try {
                Object doc = new ObjectMapper(new YAMLFactory()).readValue(Files.readAllBytes(fromFile), Object.class);
                if (!(doc instanceof Map<?, ?> map)) {
                    throw CliException.usage("--from-file: " + fromFile + " must hold one JSON or YAML object");
                }
                for (String k : ((Map<String, Object>) map).keySet()) {
                    if (!FILE_FIELDS.contains(k)) {
                        throw CliException.usage("--from-file: unknown field '" + k + "'; known: "
                                + String.join(", ", FILE_FIELDS.stream().sorted().toList()));
                    }
                }
                fields.putAll((Map<String, Object>) map);
            } catch (IOException e) {
                throw CliException.usage("--from-file: cannot read " + fromFile + ": " + e.getMessage());
            }
        }
        put("backend_type", backendType);
        if (backendRef != null) {
            try {
                Object ref = dev.backplane.cli.common.Http.JSON.readValue(TextArgs.read(backendRef, "--backend-ref"),
                        Object.class);
                if (!(ref instanceof Map)) {
                    throw CliException.usage("--backend-ref must be a JSON object");
                }
                fields.put("backend_ref", ref);
            } catch (IOException e) {
                throw CliException.usage("--backend-ref is not JSON: " + e.getMessage());
            }
        }
        put("description", description);
        if (product != null) {
            fields.put("product", product.stream().map(String::strip).filter(p -> !p.isEmpty()).toList());
        }
        put("vendor", vendor);
        put("when_to_use", whenToUse);
    }

    private void put(String name, Object value) {
        if (value != null) {
            fields.put(name, value);
        }
    }

    void printCollection(String verb, JsonNode c) {
        ctx.out().println(verb + " doc collection " + c.path("key").asText() + " (" + c.path("scope").asText() + ", "
                + c.path("state").asText() + ", " + c.path("backend_type").asText() + "; capability "
                + c.path("capability").asText() + ")");
    }
}
