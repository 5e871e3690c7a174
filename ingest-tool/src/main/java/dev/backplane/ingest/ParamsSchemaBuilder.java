package dev.backplane.ingest;

import static dev.backplane.plugin.api.IngestedConnector.IN_KEYWORD;
import static dev.backplane.plugin.api.IngestedConnector.NAME_KEYWORD;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds one operation's params schema: a closed object with a property per path, query and header
 * parameter and one for the request body, each marked with where it goes on the wire.
 */
final class ParamsSchemaBuilder {

    /** Above this an operation's body is described loosely rather than inlined with its definitions. */
    static final int MAX_SCHEMA_CHARS = 64 * 1024;
    static final String CONTENT_TYPE_KEYWORD = "x-svc-content-type";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern SIMPLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");
    private static final Pattern TEMPLATE_VARIABLE = Pattern.compile("\\{([^}/]+)}");
    private static final Set<String> LOCATIONS = Set.of("path", "query", "header");
    /**
     * Header parameters the connector sets itself (the media type of the body, the credential). {@code Accept} is
     * not among them although OpenAPI 3 says to ignore it: vendors declare it for versioned media types
     * ({@code application/vnd.x.v3+json}), so it is kept, optional (the connector sends {@code application/json}
     * when nothing else is known), with the vendor's one value as its default, which the connector sends.
     */
    private static final Set<String> RESERVED_HEADERS = Set.of("content-type", "authorization");

    private final LocalRefs refs;
    private final SchemaConverter converter;

    ParamsSchemaBuilder(LocalRefs refs, SchemaConverter converter) {
        this.refs = requireNonNull(refs, "refs is null");
        this.converter = requireNonNull(converter, "converter is null");
    }

    /**
     * The params schema of {@code operation} at {@code path}; {@code warn} receives what was skipped or loosened.
     *
     * @param requestBody the operation's request body (possibly a ref), or null
     */
    ObjectNode build(String path, List<Parameter> pathLevel, Operation operation, RequestBody requestBody,
                     Consumer<String> warn) {
        ObjectNode properties = NODES.objectNode();
        ArrayNode required = NODES.arrayNode();
        Set<String> paramRefs = new LinkedHashSet<>();
        Set<String> declaredPath = new LinkedHashSet<>();
        for (Parameter parameter : merged(pathLevel, operation.getParameters(), warn)) {
            String in = parameter.getIn().toLowerCase(Locale.ROOT);
            if (!LOCATIONS.contains(in)) {
                warn.accept("%s parameter '%s' skipped (not supported)".formatted(in, parameter.getName()));
                continue;
            }
            boolean accept = in.equals("header") && parameter.getName().equalsIgnoreCase("accept");
            if (in.equals("header") && RESERVED_HEADERS.contains(parameter.getName().toLowerCase(Locale.ROOT))) {
                // OpenAPI: such a header parameter "SHALL be ignored"; media types and auth set these headers
                warn.accept("header parameter '%s' skipped (set by the connector)".formatted(parameter.getName()));
                continue;
            }
            String name = unique(properties, propertyName(parameter.getName()), in);
            ObjectNode property = converter.convert(parameterSchema(parameter), paramRefs);
            describe(property, parameter.getDescription());
            property.put(IN_KEYWORD, in);
            if (!name.equals(parameter.getName())) {
                property.put(NAME_KEYWORD, parameter.getName());
            }
            properties.set(name, property);
            if (in.equals("path")) {
                declaredPath.add(parameter.getName());
            }
            if (accept) {
                acceptDefault(property);
            } else if (in.equals("path") || Boolean.TRUE.equals(parameter.getRequired())) {
                required.add(name);
            }
        }
        Matcher variables = TEMPLATE_VARIABLE.matcher(path);
        while (variables.find()) {
            String wireName = variables.group(1);
            if (declaredPath.add(wireName)) {
                warn.accept("path parameter '%s' is not declared; described as a string".formatted(wireName));
                String name = unique(properties, propertyName(wireName), "path");
                ObjectNode property = NODES.objectNode().put("type", "string").put(IN_KEYWORD, "path");
                if (!name.equals(wireName)) {
                    property.put(NAME_KEYWORD, wireName);
                }
                properties.set(name, property);
                required.add(name);
            }
        }
        RequestBody body = requestBody == null ? null : refs.requestBody(requestBody);
        if (requestBody != null && body == null) {
            warn.accept("request body $ref '%s' does not resolve; body described as any value"
                    .formatted(requestBody.get$ref()));
            body = new RequestBody();
        }
        return assemble(properties, required, paramRefs, body, warn);
    }

    private ObjectNode assemble(ObjectNode properties, ArrayNode required, Set<String> paramRefs, RequestBody body,
                                Consumer<String> warn) {
        Set<String> allRefs = new LinkedHashSet<>(paramRefs);
        String bodyName = null;
        ObjectNode bodyProperty = null;
        if (body != null) {
            bodyName = unique(properties, properties.has("body") ? "request_body" : "body", "body");
            Set<String> bodyRefs = new LinkedHashSet<>();
            bodyProperty = bodyProperty(body, bodyRefs, warn);
            allRefs.addAll(bodyRefs);
            long size = converter.size(properties) + converter.size(bodyProperty) + converter.closureSize(allRefs);
            if (size > MAX_SCHEMA_CHARS) {
                bodyProperty = looseBody(body, bodyProperty);
                warn.accept("request body schema too large to inline (%d KB); described loosely".formatted(size / 1024));
                allRefs = new LinkedHashSet<>(paramRefs);
            }
            properties.set(bodyName, bodyProperty);
            if (Boolean.TRUE.equals(body.getRequired())) {
                required.add(bodyName);
            }
        }
        ObjectNode schema = NODES.objectNode();
        schema.put("type", "object");
        schema.set("properties", properties);
        schema.set("required", required);
        schema.put("additionalProperties", false);
        if (!allRefs.isEmpty()) {
            ObjectNode defs = NODES.objectNode();
            converter.closure(allRefs).forEach(defs::set);
            schema.set("$defs", defs);
        }
        return schema;
    }

    private ObjectNode bodyProperty(RequestBody body, Set<String> bodyRefs, Consumer<String> warn) {
        Map.Entry<String, MediaType> chosen = BodyMedia.choose(body.getContent());
        ObjectNode property;
        if (chosen == null) {
            property = NODES.objectNode();
        }
        else {
            String mediaType = chosen.getKey();
            BodyMedia kind = BodyMedia.of(mediaType);
            if (kind == BodyMedia.OTHER) {
                property = NODES.objectNode().put("type", "string");
                warn.accept("request body of media type %s described as a string".formatted(mediaType));
            }
            else {
                property = converter.convert(chosen.getValue() == null ? null : chosen.getValue().getSchema(), bodyRefs);
            }
            if (kind != BodyMedia.JSON || !BodyMedia.isPlainJson(mediaType)) {
                property.put(CONTENT_TYPE_KEYWORD, mediaType);
            }
        }
        describe(property, body.getDescription());
        property.put(IN_KEYWORD, "body");
        return property;
    }

    private ObjectNode looseBody(RequestBody body, ObjectNode full) {
        Map.Entry<String, MediaType> chosen = BodyMedia.choose(body.getContent());
        Schema<?> schema = chosen == null || chosen.getValue() == null ? null : chosen.getValue().getSchema();
        Schema<?> target = schema == null ? null : refs.schema(schema);
        boolean array = target != null && SchemaShapes.isArray(target);
        String name = SchemaShapes.refName(schema);
        if (array && name == null && target.getItems() != null) {
            name = SchemaShapes.refName(target.getItems());
            name = name == null ? null : name + "[]";
        }
        ObjectNode loose = NODES.objectNode();
        loose.put("type", array ? "array" : "object");
        loose.put(IN_KEYWORD, "body");
        loose.put("description", (name == null ? "request body" : name)
                + " (schema too large to inline; the vendor validates it)");
        JsonNode contentType = full.get(CONTENT_TYPE_KEYWORD);
        if (contentType != null) {
            loose.set(CONTENT_TYPE_KEYWORD, contentType);
        }
        return loose;
    }

    /** Path-level parameters, then the operation's; an operation parameter replaces one of the same name and location. */
    private List<Parameter> merged(List<Parameter> pathLevel, List<Parameter> operationLevel, Consumer<String> warn) {
        Map<String, Parameter> merged = new LinkedHashMap<>();
        for (List<Parameter> level : List.of(nullToEmpty(pathLevel), nullToEmpty(operationLevel))) {
            for (Parameter declared : level) {
                Parameter parameter = refs.parameter(declared);
                if (parameter == null || parameter.getName() == null || parameter.getIn() == null) {
                    warn.accept("parameter %s skipped (unresolved or incomplete)"
                            .formatted(declared.get$ref() != null ? "$ref '" + declared.get$ref() + "'" : declared.getName()));
                    continue;
                }
                String key = parameter.getIn().toLowerCase(Locale.ROOT) + "\u0000" + parameter.getName();
                merged.remove(key);
                merged.put(key, parameter);
            }
        }
        return List.copyOf(merged.values());
    }

    private static Schema<?> parameterSchema(Parameter parameter) {
        if (parameter.getSchema() != null) {
            return parameter.getSchema();
        }
        Content content = parameter.getContent();
        if (content != null && !content.isEmpty()) {
            MediaType first = content.values().iterator().next();
            return first == null ? null : first.getSchema();
        }
        return null;
    }

    private static void describe(ObjectNode property, String description) {
        if (description != null && !description.isBlank()) {
            property.put("description", Texts.collapse(description));
        }
    }

    /** The wire name when it is a simple name, else a sanitised one (the wire name goes into x-svc-name). */
    static String propertyName(String wireName) {
        if (SIMPLE_NAME.matcher(wireName).matches()) {
            return wireName;
        }
        String sanitised = wireName.replaceAll("[^A-Za-z0-9_.-]+", "_").replaceAll("^_+|_+$", "");
        if (sanitised.isEmpty()) {
            return "param";
        }
        return SIMPLE_NAME.matcher(sanitised).matches() ? sanitised : "p_" + sanitised;
    }

    private static String unique(ObjectNode properties, String name, String in) {
        if (!properties.has(name)) {
            return name;
        }
        String candidate = name + "_" + in;
        for (int n = 2; properties.has(candidate); n++) {
            candidate = name + "_" + in + "_" + n;
        }
        return candidate;
    }

    private static <T> List<T> nullToEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    /** An {@code Accept} parameter's default: its own, or its only enum value. */
    private static void acceptDefault(ObjectNode property) {
        if (property.has("default")) {
            return;
        }
        JsonNode values = property.path("enum");
        if (values.isArray() && values.size() == 1 && values.get(0).isTextual()) {
            property.set("default", values.get(0));
        }
    }
}
