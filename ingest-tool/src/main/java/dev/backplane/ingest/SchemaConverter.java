package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * OpenAPI schema objects → JSON Schema 2020-12 trees. Refs to {@code components/schemas} become
 * {@code #/$defs/<key>} and are never inlined, so recursive schemas (Kubernetes' JSONSchemaProps) stay
 * finite; each component is converted once per spec and its serialized size remembered, so an
 * operation's closure can be measured before it is built.
 */
final class SchemaConverter {

    static final String DEFS = "#/$defs/";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Set<String> DROPPED = Set.of("discriminator", "xml", "externalDocs", "example", "examples",
            "$id", "$schema", "$anchor", "$dynamicAnchor", "nullable");
    private static final Set<String> SCHEMA_VALUED = Set.of("additionalProperties", "items", "not", "contains", "if",
            "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems",
            "contentSchema");
    private static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "dependentSchemas",
            "$defs", "definitions");
    private static final Set<String> SCHEMA_LISTS = Set.of("allOf", "anyOf", "oneOf", "prefixItems");
    private static final Set<String> TYPES = Set.of("string", "number", "integer", "boolean", "object", "array",
            "null");
    private static final Pattern KEY_UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");

    private final ObjectMapper modelMapper;
    private final ObjectMapper textMapper;
    private final LocalRefs refs;
    private final Consumer<String> warnings;
    private final Map<String, String> defKeys = new HashMap<>();
    private final Map<String, Def> defs = new HashMap<>();
    private final Set<String> warned = new HashSet<>();

    /** One converted component: its tree, the components it refers to directly, and its JSON size. */
    private record Def(JsonNode schema, Set<String> refs, int size) {
    }

    SchemaConverter(LocalRefs refs, boolean openApi31, ObjectMapper textMapper, Consumer<String> warnings) {
        this.refs = requireNonNull(refs, "refs is null");
        this.modelMapper = openApi31 ? Json31.mapper() : Json.mapper();
        this.textMapper = requireNonNull(textMapper, "textMapper is null");
        this.warnings = requireNonNull(warnings, "warnings is null");
        Set<String> used = new HashSet<>();
        for (String name : new TreeSet<>(refs.schemas().keySet())) {
            String key = KEY_UNSAFE.matcher(name).replaceAll("_");
            if (key.isEmpty()) {
                key = "schema";
            }
            String unique = key;
            for (int n = 2; !used.add(unique); n++) {
                unique = key + "_" + n;
            }
            defKeys.put(name, unique);
        }
    }

    /** Converts an inline schema (null → {}), adding the components it refers to to {@code referenced}. */
    ObjectNode convert(Schema<?> schema, Set<String> referenced) {
        if (schema == null) {
            return NODES.objectNode();
        }
        JsonNode tree = modelMapper.valueToTree(schema);
        JsonNode converted = rewrite(tree, referenced);
        return converted.isObject() ? (ObjectNode) converted : wrapBoolean(converted);
    }

    /** The components {@code roots} refer to, transitively, keyed and ordered by their {@code $defs} key. */
    Map<String, JsonNode> closure(Collection<String> roots) {
        Map<String, JsonNode> out = new TreeMap<>();
        for (String name : reachable(roots)) {
            out.put(defKeys.get(name), def(name).schema());
        }
        return out;
    }

    /** The JSON size of {@link #closure}'s definitions, without building it. */
    long closureSize(Collection<String> roots) {
        long size = 0;
        for (String name : reachable(roots)) {
            size += def(name).size() + defKeys.get(name).length() + 4;
        }
        return size;
    }

    int size(JsonNode node) {
        try {
            return textMapper.writeValueAsString(node).length();
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Set<String> reachable(Collection<String> roots) {
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> queue = new ArrayDeque<>(roots);
        while (!queue.isEmpty()) {
            String name = queue.poll();
            if (seen.add(name)) {
                queue.addAll(def(name).refs());
            }
        }
        return seen;
    }

    private Def def(String name) {
        Def def = defs.get(name);
        if (def == null) {
            Set<String> referenced = new LinkedHashSet<>();
            ObjectNode schema = convert(refs.schemas().get(name), referenced);
            def = new Def(schema, Set.copyOf(referenced), size(schema));
            defs.put(name, def);
        }
        return def;
    }

    private JsonNode rewrite(JsonNode node, Set<String> referenced) {
        if (!node.isObject()) {
            return node;
        }
        ObjectNode out = NODES.objectNode();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String key = field.getKey();
            JsonNode value = field.getValue();
            if (key.startsWith("x-") || DROPPED.contains(key)) {
                continue;
            }
            if (key.equals("$ref") && value.isTextual()) {
                rewriteRef(value.asText(), out, referenced);
            }
            else if (SCHEMA_VALUED.contains(key)) {
                out.set(key, key.equals("items") && value.isArray()
                        ? NODES.objectNode() : rewrite(value, referenced));
                if (key.equals("items") && value.isArray()) {
                    out.set("prefixItems", rewriteAll(value, referenced));
                }
            }
            else if (SCHEMA_MAPS.contains(key) && value.isObject()) {
                ObjectNode map = NODES.objectNode();
                for (Map.Entry<String, JsonNode> entry : value.properties()) {
                    map.set(entry.getKey(), rewrite(entry.getValue(), referenced));
                }
                out.set(key, map);
            }
            else if (SCHEMA_LISTS.contains(key) && value.isArray()) {
                out.set(key, rewriteAll(value, referenced));
            }
            else if (key.equals("type")) {
                copyType(value, out);
            }
            else if (key.equals("required")) {
                if (value.isArray()) {
                    out.set(key, value);
                }
            }
            else if (key.equals("pattern")) {
                if (value.isTextual() && compiles(value.asText())) {
                    out.set(key, value);
                }
            }
            else {
                out.set(key, value);
            }
        }
        exclusiveBound(node, out, "exclusiveMaximum", "maximum");
        exclusiveBound(node, out, "exclusiveMinimum", "minimum");
        return node.path("nullable").asBoolean(false) ? nullable(out) : out;
    }

    private ArrayNode rewriteAll(JsonNode list, Set<String> referenced) {
        ArrayNode out = NODES.arrayNode();
        for (JsonNode element : list) {
            out.add(rewrite(element, referenced));
        }
        return out;
    }

    private void rewriteRef(String ref, ObjectNode out, Set<String> referenced) {
        if (ref.startsWith(LocalRefs.SCHEMAS)) {
            String rest = ref.substring(LocalRefs.SCHEMAS.length());
            int slash = rest.indexOf('/');
            String name = LocalRefs.unescape(slash < 0 ? rest : rest.substring(0, slash));
            String key = defKeys.get(name);
            if (key != null) {
                referenced.add(name);
                out.put("$ref", DEFS + key + (slash < 0 ? "" : rest.substring(slash)));
                return;
            }
        }
        if (warned.add(ref)) {
            warnings.accept("unresolved $ref '" + ref + "' described as any value");
        }
        if (!out.has("description")) {
            out.put("description", "unresolved reference " + ref);
        }
    }

    private static void copyType(JsonNode value, ObjectNode out) {
        if (value.isTextual() && TYPES.contains(value.asText())) {
            out.set("type", value);
        }
        else if (value.isArray()) {
            ArrayNode types = NODES.arrayNode();
            for (JsonNode type : value) {
                if (type.isTextual() && TYPES.contains(type.asText())) {
                    types.add(type);
                }
            }
            if (!types.isEmpty()) {
                out.set("type", types);
            }
        }
    }

    /** Patterns the validator could not compile are dropped: the vendor still validates them. */
    private boolean compiles(String regex) {
        try {
            Pattern.compile(regex);
            return true;
        }
        catch (PatternSyntaxException e) {
            if (warned.add("pattern:" + regex)) {
                warnings.accept("pattern '" + ParseMessages.trim(regex) + "' does not compile; dropped");
            }
            return false;
        }
    }

    /** OpenAPI 3.0 / draft 4 boolean {@code exclusiveMaximum: true} → 2020-12 numeric form. */
    private static void exclusiveBound(JsonNode node, ObjectNode out, String exclusive, String bound) {
        JsonNode flag = node.get(exclusive);
        if (flag == null || !flag.isBoolean()) {
            return;
        }
        out.remove(exclusive);
        if (flag.asBoolean() && out.has(bound)) {
            out.set(exclusive, out.remove(bound));
        }
    }

    private static ObjectNode nullable(ObjectNode schema) {
        JsonNode type = schema.get("type");
        if (type != null && type.isTextual()) {
            schema.set("type", NODES.arrayNode().add(type.asText()).add("null"));
        }
        else if (type != null && type.isArray()) {
            if (!containsText(type, "null")) {
                ((ArrayNode) type).add("null");
            }
        }
        else if (schema.has("$ref") || schema.has("allOf") || schema.has("anyOf") || schema.has("oneOf")) {
            ObjectNode wrapper = NODES.objectNode();
            wrapper.set("anyOf", NODES.arrayNode().add(schema).add(NODES.objectNode().put("type", "null")));
            return wrapper;
        }
        JsonNode values = schema.get("enum");
        if (values != null && values.isArray() && !values.isEmpty() && !containsNull(values)) {
            ((ArrayNode) values).addNull();
        }
        return schema;
    }

    private static boolean containsText(JsonNode array, String text) {
        for (JsonNode element : array) {
            if (element.isTextual() && element.asText().equals(text)) {
                return true;
            }
        }
        return false;
    }

    private static boolean containsNull(JsonNode array) {
        for (JsonNode element : array) {
            if (element.isNull()) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode wrapBoolean(JsonNode value) {
        ObjectNode out = NODES.objectNode();
        if (value.isBoolean() && !value.asBoolean()) {
            out.set("not", NODES.objectNode());
        }
        return out;
    }
}
