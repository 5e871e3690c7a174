package dev.backplane.cli.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;

/**
 * How a command prints its data: {@code table} is the human render, {@code json} the server's JSON as
 * sent, {@code yaml} the same document as YAML (kubectl's {@code -o}).
 */
public enum OutputFormat {
    TABLE, JSON, YAML;

    /** One YAML document, without the {@code ---} marker (a stream of documents adds its own). */
    private static final YAMLMapper YAML_MAPPER = new YAMLMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build());

    /** Whether the output is a document for programs rather than a render for people. */
    public boolean machine() {
        return this != TABLE;
    }

    /** The document in this format; {@code table} has no document form, so it is refused. */
    public String render(JsonNode document) {
        return switch (this) {
            case JSON -> document.toPrettyString();
            case YAML -> yaml(document);
            case TABLE -> throw new IllegalStateException("table is a human render, not a document format");
        };
    }

    private static String yaml(JsonNode document) {
        try {
            return YAML_MAPPER.writeValueAsString(document).stripTrailing();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The values {@code -o} takes, in help and in error messages. */
    public static String choices() {
        return String.join(", ", Arrays.stream(values()).map(OutputFormat::label).toList());
    }

    /** {@code -o} values; anything else is a usage error that names the choices. */
    public static final class Converter implements CommandLine.ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            for (OutputFormat f : values()) {
                if (f.label().equalsIgnoreCase(value.trim())) {
                    return f;
                }
            }
            throw new CommandLine.TypeConversionException("expected one of " + choices() + " but was '" + value + "'");
        }
    }

    /** What shell completion offers after {@code -o}. */
    public static final class Candidates implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("json", "yaml", "table").iterator();
        }
    }
}
