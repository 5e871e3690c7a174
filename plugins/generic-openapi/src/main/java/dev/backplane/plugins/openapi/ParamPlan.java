package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where each param of one operation goes on the wire, read once from its params schema
 * ({@code x-svc-in}, {@code x-svc-name}, {@code x-svc-content-type}).
 *
 * @param params the top-level properties, in schema order
 */
record ParamPlan(List<Param> params) {

    /** Property keyword naming a body's media type when it is not JSON. */
    static final String CONTENT_TYPE_KEYWORD = "x-svc-content-type";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}/]+)}");

    /** Where a param goes. */
    enum In { PATH, QUERY, HEADER, COOKIE, BODY }

    /**
     * One top-level property of the params schema.
     *
     * @param property the property name in the params object
     * @param in where it goes
     * @param wireName its name on the wire
     * @param contentType the body media type ({@code application/json} unless the schema says otherwise)
     * @param sentByDefault what is sent when the call gives no value: an {@code Accept} header's default (the
     *     vendor's versioned media type); nothing for every other param
     */
    record Param(String property, In in, String wireName, String contentType, Optional<String> sentByDefault) {
        Param {
            requireNonNull(property, "property is null");
            requireNonNull(in, "in is null");
            requireNonNull(wireName, "wireName is null");
            requireNonNull(contentType, "contentType is null");
            requireNonNull(sentByDefault, "sentByDefault is null");
        }
    }

    ParamPlan {
        params = List.copyOf(requireNonNull(params, "params is null"));
    }

    /**
     * Reads the plan of {@code op}. A property without {@code x-svc-in} goes to the path when the template
     * names it, else to the query.
     *
     * @throws ConnectorException {@code connector_error} when the schema is not a JSON object
     */
    static ParamPlan of(OperationDescriptor op) {
        JsonNode schema;
        try {
            schema = Json.tree(op.paramsSchema());
        } catch (JsonProcessingException e) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the params schema of " + op.opId()
                    + " is not valid JSON: " + e.getOriginalMessage());
        }
        Set<String> placeholders = placeholders(((OperationShape.Http) op.shape()).pathTemplate());
        List<Param> params = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : schema.path("properties").properties()) {
            JsonNode p = e.getValue();
            String wire = p.path(IngestedConnector.NAME_KEYWORD).asText(e.getKey());
            In in = in(p.path(IngestedConnector.IN_KEYWORD).asText(""), placeholders.contains(wire), op.opId(), e.getKey());
            String contentType = p.path(CONTENT_TYPE_KEYWORD).asText("application/json");
            Optional<String> sentByDefault = in == In.HEADER && wire.equalsIgnoreCase("accept")
                    && p.path("default").isTextual() ? Optional.of(p.path("default").asText()) : Optional.empty();
            params.add(new Param(e.getKey(), in, wire, contentType, sentByDefault));
        }
        return new ParamPlan(params);
    }

    private static In in(String keyword, boolean inTemplate, String opId, String property) {
        if (keyword.isEmpty()) {
            return inTemplate ? In.PATH : In.QUERY;
        }
        try {
            return In.valueOf(keyword.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "param '" + property + "' of " + opId
                    + " has an unknown " + IngestedConnector.IN_KEYWORD + " '" + keyword
                    + "' (path, query, header, cookie or body)");
        }
    }

    /** The {@code {name}} placeholders of a path template. */
    static Set<String> placeholders(String template) {
        Set<String> names = new HashSet<>();
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    static Pattern placeholderPattern() {
        return PLACEHOLDER;
    }
}
