package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a runbook template's YAML and checks it against {@code runbooks/runbook-template.schema.json}
 * (JSON Schema 2020-12). Every problem is reported with the line and column of the YAML node it is
 * about (1-based), so an author can find it: syntax errors, duplicate keys, schema violations, and
 * {@code {{input.<name>}}} placeholders naming an input the template does not declare.
 */
final class RunbookYaml {

    static final int MAX_BYTES = 256 * 1024;
    static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*input\\.([a-z][a-z0-9_]*)\\s*}}");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Schema SCHEMA = loadSchema();

    /** One problem in the YAML. */
    record Problem(int line, int column, String path, String message) {
    }

    private RunbookYaml() {
    }

    /** The template as JSON, or {@code 422 invalid_runbook} with every problem found and where it is. */
    static JsonNode parse(String yaml) {
        if (yaml == null || yaml.isBlank()) {
            throw invalid(List.of(new Problem(1, 1, "", "the template is empty; it needs at least a title and steps")));
        }
        if (yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw invalid(List.of(new Problem(1, 1, "", "the template is larger than " + MAX_BYTES + " bytes")));
        }
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setMaxAliasesForCollections(20);
            options.setAllowRecursiveKeys(false);
            options.setNestingDepthLimit(40);
            options.setCodePointLimit(MAX_BYTES);
            root = new Yaml(options).compose(new StringReader(yaml));
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            throw invalid(List.of(new Problem(m == null ? 1 : m.getLine() + 1, m == null ? 1 : m.getColumn() + 1, "",
                    "not valid YAML: " + e.getProblem())));
        } catch (YAMLException e) {
            throw invalid(List.of(new Problem(1, 1, "", "not valid YAML: " + e.getMessage())));
        }
        if (root == null) {
            throw invalid(List.of(new Problem(1, 1, "", "the template is empty; it needs at least a title and steps")));
        }
        Map<String, Mark> marks = new HashMap<>();
        List<Problem> problems = new ArrayList<>();
        JsonNode json = toJson(root, "", marks, problems, 0);
        if (problems.isEmpty()) {
            for (com.networknt.schema.Error v : SCHEMA.validate(json)) {
                String pointer = pointer(v);
                Mark m = marks.getOrDefault(pointer, root.getStartMark());
                problems.add(new Problem(m.getLine() + 1, m.getColumn() + 1, pointer, v.getMessage().replaceFirst(
                        "^\\$[^:]*: ", "")));
            }
        }
        if (problems.isEmpty()) {
            checkPlaceholders(json, marks, problems);
        }
        if (!problems.isEmpty()) {
            problems.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column));
            throw invalid(problems);
        }
        return json;
    }

    /** The input names a template declares. */
    static Set<String> inputNames(JsonNode definition) {
        Set<String> names = new HashSet<>();
        definition.path("inputs").forEach(i -> names.add(i.path("name").asText()));
        return names;
    }

    private static void checkPlaceholders(JsonNode json, Map<String, Mark> marks, List<Problem> problems) {
        Set<String> declared = inputNames(json);
        walkStrings(json, "", (path, text) -> {
            Matcher m = PLACEHOLDER.matcher(text);
            while (m.find()) {
                if (!declared.contains(m.group(1))) {
                    Mark at = marks.get(path);
                    problems.add(new Problem(at == null ? 1 : at.getLine() + 1, at == null ? 1 : at.getColumn() + 1, path,
                            "{{input." + m.group(1) + "}} names no input of this template (declared: "
                                    + (declared.isEmpty() ? "none" : String.join(", ", declared.stream().sorted().toList()))
                                    + ")"));
                }
            }
        });
    }

    interface StringVisitor {
        void visit(String path, String text);
    }

    static void walkStrings(JsonNode node, String path, StringVisitor visitor) {
        if (node.isTextual()) {
            visitor.visit(path, node.asText());
        } else if (node.isObject()) {
            node.properties().forEach(e -> walkStrings(e.getValue(), path + "/" + e.getKey(), visitor));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walkStrings(node.get(i), path + "/" + i, visitor);
            }
        }
    }

    private static final int MAX_DEPTH = 32;
    private static final int MAX_NODES = 20_000;

    private static JsonNode toJson(Node node, String path, Map<String, Mark> marks, List<Problem> problems, int depth) {
        if (depth > MAX_DEPTH || marks.size() > MAX_NODES) {
            if (problems.stream().noneMatch(p -> p.message().startsWith("the template nests"))) {
                problems.add(at(node, path, "the template nests deeper than " + MAX_DEPTH + " levels or holds more than "
                        + MAX_NODES + " values (a recursive or exploding alias?)"));
            }
            return NODES.nullNode();
        }
        marks.put(path, node.getStartMark());
        if (node instanceof MappingNode map) {
            ObjectNode o = NODES.objectNode();
            for (NodeTuple t : map.getValue()) {
                if (!(t.getKeyNode() instanceof ScalarNode key)) {
                    problems.add(at(t.getKeyNode(), path, "a key must be a plain string"));
                    continue;
                }
                String name = key.getValue();
                if (o.has(name)) {
                    problems.add(at(key, path + "/" + name, "duplicate key '" + name + "'"));
                    continue;
                }
                o.set(name, toJson(t.getValueNode(), path + "/" + name, marks, problems, depth + 1));
                marks.put(path + "/" + name, key.getStartMark());
            }
            return o;
        }
        if (node instanceof SequenceNode seq) {
            ArrayNode a = NODES.arrayNode();
            List<Node> items = seq.getValue();
            for (int i = 0; i < items.size(); i++) {
                a.add(toJson(items.get(i), path + "/" + i, marks, problems, depth + 1));
            }
            return a;
        }
        ScalarNode s = (ScalarNode) node;
        Tag tag = s.getTag();
        String v = s.getValue();
        try {
            if (tag.equals(Tag.NULL)) {
                return NODES.nullNode();
            }
            if (tag.equals(Tag.BOOL)) {
                return NODES.booleanNode(v.equalsIgnoreCase("true") || v.equalsIgnoreCase("yes") || v.equalsIgnoreCase("on"));
            }
            if (tag.equals(Tag.INT)) {
                return NODES.numberNode(new BigInteger(v.replace("_", "")));
            }
            if (tag.equals(Tag.FLOAT)) {
                return NODES.numberNode(new BigDecimal(v.replace("_", "")));
            }
        } catch (NumberFormatException e) {
            return NODES.textNode(v);
        }
        return NODES.textNode(v);
    }

    private static Problem at(Node node, String path, String message) {
        Mark m = node.getStartMark();
        return new Problem(m.getLine() + 1, m.getColumn() + 1, path, message);
    }

    /** The JSON pointer of the instance a schema message is about (a missing or extra property: its object). */
    private static String pointer(com.networknt.schema.Error v) {
        var location = v.getInstanceLocation();
        StringBuilder p = new StringBuilder();
        for (int i = 0; i < location.getNameCount(); i++) {
            p.append('/').append(location.getElement(i));
        }
        if ("additionalProperties".equals(v.getKeyword()) && v.getProperty() != null) {
            p.append('/').append(v.getProperty());
        }
        return p.toString();
    }

    private static dev.backplane.kernel.errors.DomainException invalid(List<Problem> problems) {
        List<Map<String, Object>> errors = new ArrayList<>();
        for (Problem p : problems) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("line", p.line());
            e.put("column", p.column());
            e.put("path", p.path().isEmpty() ? "/" : p.path());
            e.put("message", p.message());
            errors.add(e);
        }
        Problem first = problems.getFirst();
        return RunbookErrors.INVALID_RUNBOOK.error("the runbook YAML has " + problems.size() + " problem"
                + (problems.size() == 1 ? "" : "s") + "; first at line " + first.line() + ", column " + first.column()
                + ": " + first.message(), Map.of("errors", errors));
    }

    private static Schema loadSchema() {
        try (InputStream in = RunbookYaml.class.getResourceAsStream("/runbooks/runbook-template.schema.json")) {
            return dev.backplane.kernel.util.JsonSchemas.compile(JsonMapping.mapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
