package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.JsonSchemas;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads a runbook template's YAML and checks it against {@code runbooks/runbook-template.schema.json}
 * (JSON Schema 2020-12). Every problem is reported with the line and column of the YAML node it is
 * about (1-based), so an author can find it: syntax errors, duplicate keys, schema violations, and
 * {@code {{input.<name>}}} placeholders naming an input the template does not declare.
 */
final class RunbookYaml {

    static final int MAX_BYTES = 256 * 1024;
    static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*input\\.([a-z][a-z0-9_]*)\\s*}}");
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
        if (yaml.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
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
        JsonNode json = RunbookYamlTree.toJson(root, marks, problems);
        if (problems.isEmpty()) {
            for (Error v : SCHEMA.validate(json)) {
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

    /** The JSON pointer of the instance a schema message is about (a missing or extra property: its object). */
    private static String pointer(Error v) {
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

    private static DomainException invalid(List<Problem> problems) {
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
            return JsonSchemas.compile(JsonMapping.mapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
