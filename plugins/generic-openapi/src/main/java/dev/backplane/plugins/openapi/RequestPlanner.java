package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.OperationShape;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.regex.Matcher;

/** Turns one call's params into the request its operation sends, following the operation's {@link ParamPlan}. */
final class RequestPlanner {

    private final String basePath;

    RequestPlanner(String basePath) {
        this.basePath = requireNonNull(basePath, "basePath is null");
    }

    /**
     * The request for {@code params}.
     *
     * @throws ConnectorException {@code invalid_params} when a path param is missing or is (or holds) a dot
     *     segment; {@code connector_error}
     *     for a body media type this engine cannot send
     */
    PlannedRequest plan(String opId, OperationShape.Http shape, ParamPlan plan, Map<String, Object> params) {
        Map<String, String> pathValues = new LinkedHashMap<>();
        Map<String, List<String>> query = new LinkedHashMap<>();
        Map<String, String> headers = new LinkedHashMap<>();
        StringJoiner cookies = new StringJoiner("; ");
        List<ParamPlan.Param> bodyParams = new ArrayList<>();
        for (ParamPlan.Param p : plan.params()) {
            Object value = params.get(p.property());
            if (p.in() == ParamPlan.In.BODY) {
                if (value != null) {
                    bodyParams.add(p);
                }
                continue;
            }
            if (value == null) {
                p.sentByDefault().ifPresent(v -> headers.put(p.wireName(), v));
                continue;
            }
            switch (p.in()) {
                case PATH -> pathValues.put(p.wireName(), WireEncoding.text(value));
                case QUERY -> query.put(p.wireName(), values(value));
                case HEADER -> headers.put(p.wireName(), String.join(",", values(value)));
                case COOKIE -> cookies.add(p.wireName() + "=" + WireEncoding.text(value));
                default -> throw new IllegalStateException("unreachable: " + p.in());
            }
        }
        if (cookies.length() > 0) {
            headers.put("Cookie", cookies.toString());
        }
        String resolved = resolve(opId, shape.pathTemplate(), pathValues, params);
        // the template "/" names the base path itself: /admin/realms, not /admin/realms/
        String path = resolved.equals("/") && !basePath.isEmpty() ? basePath : basePath + resolved;
        return new PlannedRequest(shape.method(), path, query, headers, body(opId, bodyParams, params));
    }

    private static String resolve(String opId, String template, Map<String, String> values, Map<String, Object> params) {
        Matcher m = ParamPlan.placeholderPattern().matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value = values.get(name);
            if (value == null && params.get(name) != null) {
                value = WireEncoding.text(params.get(name)); // a placeholder the schema does not describe
            }
            if (value == null || value.isEmpty()) {
                throw new ConnectorException(ErrorCode.INVALID_PARAMS, opId + " needs path param '" + name + "'");
            }
            if (WireEncoding.holdsDotSegment(value)) {
                throw new ConnectorException(ErrorCode.INVALID_PARAMS, "path param '" + name + "' of " + opId
                        + " must not be '.' or '..' (nor hold one, encoded or between slashes): a dot segment would "
                        + "reach another resource than " + opId);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(WireEncoding.percent(value)));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static List<String> values(Object value) {
        if (value instanceof Collection<?> c) {
            return c.stream().filter(e -> e != null).map(WireEncoding::text).toList();
        }
        return List.of(WireEncoding.text(value));
    }

    /** One body param is the body; several (a flattened body) become one object keyed by wire name. */
    private static Optional<PlannedRequest.Body> body(String opId, List<ParamPlan.Param> bodyParams,
                                                      Map<String, Object> params) {
        if (bodyParams.isEmpty()) {
            return Optional.empty();
        }
        String contentType = bodyParams.getFirst().contentType();
        if (contentType.toLowerCase(Locale.ROOT).startsWith("multipart/")) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, opId + " takes a " + contentType
                    + " body, which this engine does not send");
        }
        if (bodyParams.size() == 1) {
            return Optional.of(new PlannedRequest.Body(params.get(bodyParams.getFirst().property()), contentType));
        }
        Map<String, Object> merged = new LinkedHashMap<>();
        bodyParams.forEach(p -> merged.put(p.wireName(), params.get(p.property())));
        return Optional.of(new PlannedRequest.Body(merged, contentType));
    }
}
