package dev.backplane.ingest;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;

/** Follows {@code #/components/...} refs inside one parsed spec (the parser leaves them unresolved). */
final class LocalRefs {

    static final String SCHEMAS = "#/components/schemas/";
    private static final int MAX_HOPS = 16;

    private final Components components;

    LocalRefs(OpenAPI api) {
        this.components = api.getComponents() == null ? new Components() : api.getComponents();
    }

    @SuppressWarnings("rawtypes")
    Map<String, Schema> schemas() {
        return components.getSchemas() == null ? Map.of() : components.getSchemas();
    }

    /** The parameter itself, or its target; null when a ref does not resolve. */
    Parameter parameter(Parameter parameter) {
        return follow(parameter, Parameter::get$ref, "#/components/parameters/", components.getParameters());
    }

    RequestBody requestBody(RequestBody body) {
        return follow(body, RequestBody::get$ref, "#/components/requestBodies/", components.getRequestBodies());
    }

    ApiResponse response(ApiResponse response) {
        return follow(response, ApiResponse::get$ref, "#/components/responses/", components.getResponses());
    }

    /** The schema itself, or the component schema a chain of refs ends at; null when a ref does not resolve. */
    @SuppressWarnings("rawtypes")
    Schema<?> schema(Schema<?> schema) {
        Schema current = schema;
        for (int hop = 0; current != null && current.get$ref() != null; hop++) {
            String name = componentName(current.get$ref(), SCHEMAS);
            if (hop == MAX_HOPS || name == null) {
                return null;
            }
            current = schemas().get(name);
        }
        return current;
    }

    private static <T> T follow(T value, Function<T, String> ref, String prefix, Map<String, T> targets) {
        T current = value;
        for (int hop = 0; current != null && ref.apply(current) != null; hop++) {
            String name = componentName(ref.apply(current), prefix);
            if (hop == MAX_HOPS || name == null || targets == null) {
                return null;
            }
            current = targets.get(name);
        }
        return current;
    }

    /** The component a {@code #/components/<kind>/<name>} ref names (pointer-unescaped), or null. */
    static String componentName(String ref, String prefix) {
        if (ref == null || !ref.startsWith(prefix)) {
            return null;
        }
        String rest = ref.substring(prefix.length());
        if (rest.isEmpty() || rest.contains("/")) {
            return null;
        }
        return unescape(rest);
    }

    static String unescape(String segment) {
        String decoded = segment;
        if (decoded.indexOf('%') >= 0) {
            try {
                decoded = URLDecoder.decode(decoded.replace("+", "%2B"), StandardCharsets.UTF_8);
            }
            catch (IllegalArgumentException e) {
                // not percent-encoded after all
            }
        }
        return decoded.replace("~1", "/").replace("~0", "~");
    }
}
