package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.runbooks.RunbookYaml.Problem;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Turns a composed YAML node tree into JSON for {@link RunbookYaml}: each value's mark (where it starts in
 * the YAML) is kept under its JSON pointer, and non-string keys, duplicate keys and trees that nest too deep
 * or hold too many values (an exploding alias) become problems at their line and column.
 */
final class RunbookYamlTree {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RunbookYamlTree() {
    }

    private static final int MAX_DEPTH = 32;
    private static final int MAX_NODES = 20_000;

    /**
     * The tree as JSON; {@code marks} receives each value's start (a property: its key's) under its JSON pointer,
     * {@code problems} what is wrong with it.
     */
    static JsonNode toJson(Node root, Map<String, Mark> marks, List<Problem> problems) {
        return toJson(root, "", marks, problems, 0);
    }

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
}
