package dev.backplane.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.ingest.SpecIngestException.Reason;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import io.swagger.v3.parser.util.DeserializationUtils;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A multi-file spec made one document, as {@code redocly bundle} does: every {@code $ref} to another of its files
 * becomes a ref to a component of the root — a schema, parameter, response, request body, header or example, by
 * where the ref stands — copied in once, under the name of its file or fragment ({@code schemas/pet.yaml} → {@code
 * #/components/schemas/pet}); refs inside the copied parts are followed the same way from their own file. An
 * operation or path item given as a ref (DigitalOcean's {@code get: {$ref: resources/account/account_get.yml}}: OpenAPI
 * has no ref on an operation) is put in place. The parser then reads one document with local refs only, so nothing
 * is staged on disk and nothing outside the files is ever read: a ref to a URL, an absolute path, a path that climbs
 * out of the files or a file that is not there is refused with the ref and the file it is in named.
 */
final class SpecBundler {

    /** Where a node stands, which says what a ref there names. */
    private enum Kind {
        OTHER, ROOT, PATHS, PATH_ITEM, OPERATION, PARAMETERS, PARAMETER, REQUEST_BODY, RESPONSES, RESPONSE, CONTENT,
        MEDIA, HEADERS, HEADER, EXAMPLES, EXAMPLE, SCHEMA, SCHEMA_MAP, SCHEMA_LIST, COMPONENTS, PARAMETER_MAP,
        REQUEST_BODY_MAP, RESPONSE_MAP
    }

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "options", "head", "patch",
            "trace");
    private static final int MAX_INLINE_DEPTH = 32;

    private final String location;
    private final Map<String, String> files;
    private final boolean swagger2;
    private final ObjectNode root;
    private final Map<String, JsonNode> trees = new HashMap<>();
    /** (kind, file#fragment) → the local ref it became. */
    private final Map<String, String> hoisted = new HashMap<>();
    private final Map<String, Set<String>> names = new HashMap<>();
    private final Deque<String> inlining = new ArrayDeque<>();

    private final String rootPath;

    private SpecBundler(String location, Map<String, String> files, String rootPath, ObjectNode root,
                        boolean swagger2) {
        this.location = location;
        this.rootPath = rootPath;
        this.files = files;
        this.root = root;
        this.swagger2 = swagger2;
    }

    /** The root document of {@code files} with every ref between the files made local. */
    static ObjectNode bundle(String location, Map<String, String> files, String rootPath) {
        JsonNode tree = parse(location, files, rootPath);
        if (!(tree instanceof ObjectNode object)) {
            throw new SpecIngestException(Reason.SPEC_INVALID, rootPath + " in " + location + " is not an object");
        }
        ObjectNode root = object.deepCopy();
        SpecBundler bundler = new SpecBundler(location, files, rootPath, root, root.has("swagger"));
        bundler.walk(root, rootPath, Kind.ROOT, 0);
        return root;
    }

    private void walk(JsonNode node, String file, Kind kind, int depth) {
        if (node instanceof ArrayNode array) {
            Kind element = switch (kind) {
                case PARAMETERS -> Kind.PARAMETER;
                case SCHEMA_LIST -> Kind.SCHEMA;
                default -> Kind.OTHER;
            };
            for (int i = 0; i < array.size(); i++) {
                walk(array.get(i), file, element, depth);
            }
            return;
        }
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        JsonNode ref = object.get("$ref");
        if (ref != null && ref.isTextual() && !(file.equals(rootPath) && ref.asText().startsWith("#"))) {
            resolveRef(object, file, ref.asText(), kind, depth);
            return;
        }
        // a copy: components found on the way are added to the root's components while they are walked
        for (Map.Entry<String, JsonNode> field : java.util.List.copyOf(object.properties())) {
            String key = field.getKey();
            if (key.startsWith("x-") || key.equals("example") || key.equals("default") || key.equals("enum")
                    || key.equals("const")) {
                continue;
            }
            walk(field.getValue(), file, child(kind, key), depth);
        }
    }

    /** A ref in another file than the root, or to another file: made local. */
    private void resolveRef(ObjectNode node, String file, String ref, Kind kind, int depth) {
        int hash = ref.indexOf('#');
        String filePart = hash < 0 ? ref : ref.substring(0, hash);
        String fragment = hash < 0 ? "" : ref.substring(hash + 1);
        String target = filePart.isEmpty() ? file : SpecFiles.resolveAmong(file, filePart);
        if (target == null) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, ("%s: $ref '%s' in %s points outside the spec's "
                    + "files; only relative refs between its own files are followed").formatted(location, ref, file));
        }
        if (!files.containsKey(target)) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, ("%s: $ref '%s' in %s names %s, which is not among "
                    + "the spec's %d files").formatted(location, ref, file, target, files.size()));
        }
        if (target.equals(rootPath)) {
            node.put("$ref", "#" + fragment); // back into the root: its own components
            return;
        }
        String section = section(kind);
        if (section == null) {
            // an operation, a path item or anything without a component section: put in place
            String key = target + "#" + fragment;
            if (inlining.contains(key) || depth > MAX_INLINE_DEPTH) {
                node.removeAll();
                return; // a loop of refs put in place: left empty rather than copied forever
            }
            JsonNode content = pointer(target, fragment, ref, file).deepCopy();
            node.remove("$ref");
            if (content instanceof ObjectNode o) {
                node.setAll(o);
            }
            inlining.push(key);
            walk(node, target, kind, depth + 1);
            inlining.pop();
            return;
        }
        String key = section + ":" + target + "#" + fragment;
        String local = hoisted.get(key);
        if (local == null) {
            String name = uniqueName(section, target, fragment);
            local = (swagger2 ? "#/" : "#/components/") + section + "/" + name;
            hoisted.put(key, local);
            JsonNode content = pointer(target, fragment, ref, file).deepCopy();
            sectionNode(section).set(name, content);
            walk(content, target, kind, depth + 1);
        }
        node.removeAll();
        node.put("$ref", local);
    }

    /** The component section a ref standing at {@code kind} names, or null to put it in place. */
    private String section(Kind kind) {
        return switch (kind) {
            case SCHEMA -> swagger2 ? "definitions" : "schemas";
            case PARAMETER -> "parameters";
            case RESPONSE -> "responses";
            case REQUEST_BODY -> swagger2 ? null : "requestBodies";
            case HEADER -> swagger2 ? null : "headers";
            case EXAMPLE -> swagger2 ? null : "examples";
            default -> null;
        };
    }

    private ObjectNode sectionNode(String section) {
        ObjectNode parent = swagger2 ? root : root.withObjectProperty("components");
        return parent.withObjectProperty(section);
    }

    private String uniqueName(String section, String target, String fragment) {
        Set<String> taken = names.computeIfAbsent(section, s -> {
            Set<String> existing = new HashSet<>();
            JsonNode current = swagger2 ? root.path(s) : root.path("components").path(s);
            current.fieldNames().forEachRemaining(existing::add);
            return existing;
        });
        String base = fragment.isEmpty() || fragment.equals("/") ? target.substring(target.lastIndexOf('/') + 1)
                .replaceFirst("\\.(json|ya?ml)$", "") : fragment.substring(fragment.lastIndexOf('/') + 1);
        base = base.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (base.isEmpty()) {
            base = "bundled";
        }
        String name = base;
        for (int n = 2; !taken.add(name); n++) {
            name = base + "_" + n;
        }
        return name;
    }

    private JsonNode pointer(String target, String fragment, String ref, String from) {
        JsonNode tree = trees.computeIfAbsent(target, t -> parse(location, files, t));
        JsonNode at = fragment.isEmpty() ? tree : tree.at(fragment.startsWith("/") ? fragment : "/" + fragment);
        if (at == null || at.isMissingNode()) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, "%s: $ref '%s' in %s points at nothing in %s"
                    .formatted(location, ref, from, target));
        }
        return at;
    }

    private static JsonNode parse(String location, Map<String, String> files, String path) {
        try {
            JsonNode tree = DeserializationUtils.deserializeIntoTree(files.get(path), path, null,
                    new SwaggerParseResult());
            return tree == null ? JsonNodeFactory.instance.objectNode() : tree;
        }
        catch (RuntimeException e) {
            throw new SpecIngestException(Reason.SPEC_INVALID, path + " in " + location + " is neither JSON nor YAML");
        }
    }

    /** What the value under {@code key} of a node at {@code kind} is. */
    private Kind child(Kind kind, String key) {
        return switch (kind) {
            case ROOT -> switch (key) {
                case "paths" -> Kind.PATHS;
                case "components" -> Kind.COMPONENTS;
                case "definitions" -> Kind.SCHEMA_MAP;
                case "parameters" -> Kind.PARAMETER_MAP;
                case "responses" -> Kind.RESPONSE_MAP;
                default -> Kind.OTHER;
            };
            case PATHS -> Kind.PATH_ITEM;
            case PATH_ITEM -> METHODS.contains(key) ? Kind.OPERATION : key.equals("parameters") ? Kind.PARAMETERS
                    : Kind.OTHER;
            case OPERATION -> switch (key) {
                case "parameters" -> Kind.PARAMETERS;
                case "requestBody" -> Kind.REQUEST_BODY;
                case "responses" -> Kind.RESPONSES;
                default -> Kind.OTHER;
            };
            case PARAMETER, HEADER -> switch (key) {
                case "schema", "items" -> Kind.SCHEMA;
                case "content" -> Kind.CONTENT;
                case "examples" -> Kind.EXAMPLES;
                default -> Kind.OTHER;
            };
            case REQUEST_BODY -> key.equals("content") ? Kind.CONTENT : Kind.OTHER;
            case RESPONSES, RESPONSE_MAP -> Kind.RESPONSE;
            case RESPONSE -> switch (key) {
                case "headers" -> Kind.HEADERS;
                case "content" -> Kind.CONTENT;
                case "schema" -> Kind.SCHEMA;
                default -> Kind.OTHER;
            };
            case CONTENT -> Kind.MEDIA;
            case MEDIA -> switch (key) {
                case "schema" -> Kind.SCHEMA;
                case "examples" -> Kind.EXAMPLES;
                default -> Kind.OTHER;
            };
            case HEADERS -> Kind.HEADER;
            case EXAMPLES -> Kind.EXAMPLE;
            case SCHEMA -> switch (key) {
                case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas" -> Kind.SCHEMA_MAP;
                case "items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else",
                     "unevaluatedItems", "unevaluatedProperties", "additionalItems" -> Kind.SCHEMA;
                case "allOf", "oneOf", "anyOf", "prefixItems" -> Kind.SCHEMA_LIST;
                default -> Kind.OTHER;
            };
            case SCHEMA_MAP -> Kind.SCHEMA;
            case PARAMETER_MAP -> Kind.PARAMETER;
            case REQUEST_BODY_MAP -> Kind.REQUEST_BODY;
            case COMPONENTS -> switch (key) {
                case "schemas" -> Kind.SCHEMA_MAP;
                case "parameters" -> Kind.PARAMETER_MAP;
                case "responses" -> Kind.RESPONSE_MAP;
                case "requestBodies" -> Kind.REQUEST_BODY_MAP;
                case "headers" -> Kind.HEADERS;
                case "examples" -> Kind.EXAMPLES;
                default -> Kind.OTHER;
            };
            default -> Kind.OTHER;
        };
    }
}
