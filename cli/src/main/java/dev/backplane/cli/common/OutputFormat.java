package dev.backplane.cli.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import com.jayway.jsonpath.spi.json.JacksonJsonNodeJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import picocli.CommandLine;

/**
 * How a command prints its data (kubectl's {@code -o}): {@code table} is the human render, fitted to the terminal;
 * {@code wide} the same render with every cell whole; {@code json} the server's JSON as sent; {@code yaml} the same
 * document as YAML; {@code jsonpath=<expr>} what a JSONPath expression selects from that document, one value per
 * line (text as is, anything else as compact JSON), for scripts.
 */
public final class OutputFormat {

    /** The kinds of output; {@link #JSONPATH} carries an expression. */
    public enum Kind {
        TABLE, WIDE, JSON, YAML, JSONPATH
    }

    public static final OutputFormat TABLE = new OutputFormat(Kind.TABLE, null);
    public static final OutputFormat WIDE = new OutputFormat(Kind.WIDE, null);
    public static final OutputFormat JSON = new OutputFormat(Kind.JSON, null);
    public static final OutputFormat YAML = new OutputFormat(Kind.YAML, null);

    /** One YAML document, without the {@code ---} marker (a stream of documents adds its own). */
    private static final YAMLMapper YAML_MAPPER = new YAMLMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build());

    /**
     * JSONPath evaluated on Jackson's tree, so the document is never re-parsed or re-typed. They are also JSONPath's
     * defaults: its json-smart provider is not on the class path.
     */
    private static final Configuration JSON_PATH;

    static {
        JacksonJsonNodeJsonProvider json = new JacksonJsonNodeJsonProvider(Http.JSON);
        JacksonMappingProvider mapping = new JacksonMappingProvider(Http.JSON);
        Configuration.setDefaults(new Configuration.Defaults() {
            @Override
            public com.jayway.jsonpath.spi.json.JsonProvider jsonProvider() {
                return json;
            }

            @Override
            public java.util.Set<com.jayway.jsonpath.Option> options() {
                return java.util.EnumSet.noneOf(com.jayway.jsonpath.Option.class);
            }

            @Override
            public com.jayway.jsonpath.spi.mapper.MappingProvider mappingProvider() {
                return mapping;
            }
        });
        JSON_PATH = Configuration.builder().jsonProvider(json).mappingProvider(mapping).build();
    }

    private final Kind kind;
    private final String expression;
    private final JsonPath path;

    private OutputFormat(Kind kind, String expression) {
        this.kind = kind;
        this.expression = expression;
        this.path = expression == null ? null : JsonPath.compile(expression);
    }

    /**
     * {@code jsonpath=<expr>}: a JSONPath ({@code $.items[*].name}) or kubectl's template form
     * ({@code {.items[*].name}}).
     */
    public static OutputFormat jsonPath(String expression) {
        String e = expression.trim();
        if (e.startsWith("{") && e.endsWith("}")) {
            e = e.substring(1, e.length() - 1).trim();
        }
        if (e.startsWith(".") || e.startsWith("[")) {
            e = "$" + e;
        }
        if (e.isEmpty()) {
            throw new IllegalArgumentException("-o jsonpath needs an expression, such as -o jsonpath='$.items[*].id'");
        }
        try {
            return new OutputFormat(Kind.JSONPATH, e);
        } catch (InvalidPathException ex) {
            throw new IllegalArgumentException("-o jsonpath: '" + expression + "' is not a JSONPath expression ("
                    + ex.getMessage() + ")");
        }
    }

    public Kind kind() {
        return kind;
    }

    /** Whether the output is a document for programs rather than a render for people. */
    public boolean machine() {
        return kind != Kind.TABLE && kind != Kind.WIDE;
    }

    /** Whether tables print every cell whole ({@code -o wide}) rather than fitted to the terminal. */
    public boolean wide() {
        return kind == Kind.WIDE;
    }

    /** The document in this format; the tables have no document form, so they are refused. */
    public String render(JsonNode document) {
        return switch (kind) {
            case JSON -> document.toPrettyString();
            case YAML -> yaml(document);
            case JSONPATH -> select(document);
            case TABLE, WIDE -> throw new IllegalStateException("table is a human render, not a document format");
        };
    }

    /** One line per selected value: text as is, numbers and booleans as written, objects and arrays as compact JSON. */
    private String select(JsonNode document) {
        JsonNode selected;
        try {
            Object raw = path.read(document, JSON_PATH); // a leaf comes back unwrapped (a String, an Integer)
            selected = raw instanceof JsonNode node ? node : Http.JSON.valueToTree(raw);
        } catch (PathNotFoundException e) {
            throw CliException.failed("-o jsonpath: " + expression + " matches nothing in the answer ("
                    + e.getMessage() + ")");
        }
        List<String> lines = new ArrayList<>();
        if (!path.isDefinite() && selected != null && selected.isArray()) {
            selected.forEach(v -> lines.add(line(v)));
        } else {
            lines.add(line(selected));
        }
        return String.join("\n", lines);
    }

    private static String line(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return "null";
        }
        return value.isTextual() ? value.asText() : value.toString();
    }

    private static String yaml(JsonNode document) {
        try {
            return YAML_MAPPER.writeValueAsString(document).stripTrailing();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public String label() {
        return kind == Kind.JSONPATH ? "jsonpath=" + expression : kind.name().toLowerCase(Locale.ROOT);
    }

    /** The values {@code -o} takes, in help and in error messages. */
    public static String choices() {
        return "table, wide, json, yaml, jsonpath=<expr>";
    }

    /** Parses an {@code -o} value (also {@code SVC_OUTPUT} and a context's output default). */
    public static OutputFormat parse(String value) {
        String v = value.trim();
        int eq = v.indexOf('=');
        String name = (eq < 0 ? v : v.substring(0, eq)).toLowerCase(Locale.ROOT);
        if (name.equals("jsonpath")) {
            return jsonPath(eq < 0 ? "" : v.substring(eq + 1));
        }
        for (OutputFormat f : List.of(TABLE, WIDE, JSON, YAML)) {
            if (f.label().equals(name) && eq < 0) {
                return f;
            }
        }
        throw new IllegalArgumentException("expected one of " + choices() + " but was '" + value + "'");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutputFormat f && f.kind == kind && Objects.equals(f.expression, expression);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, expression);
    }

    @Override
    public String toString() {
        return label();
    }

    /** {@code -o} values; anything else is a usage error that names the choices. */
    public static final class Converter implements CommandLine.ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** What shell completion offers after {@code -o}. */
    public static final class Candidates implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("json", "yaml", "table", "wide", "jsonpath=").iterator();
        }
    }
}
