package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.ingest.SpecIngestException.Reason;
import io.swagger.parser.Swagger20Parser;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.converter.SwaggerConverter;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs swagger-parser on a {@link SpecDocument} (Swagger 2.0 is converted to OpenAPI 3). Local refs are
 * left in place (no full resolution: the Kubernetes spec would inflate); remote refs are refused unless
 * allowed, and the parser never fetches anything otherwise.
 */
final class SpecParser {

    /**
     * The parsed spec.
     *
     * @param basePath normalised base path ("" or {@code /x}, no trailing slash)
     * @param warnings parser messages that did not stop the parse
     */
    record ParsedSpec(SpecDocument document, OpenAPI openApi, String basePath, List<String> warnings) {
        ParsedSpec {
            requireNonNull(document, "document is null");
            requireNonNull(openApi, "openApi is null");
            requireNonNull(basePath, "basePath is null");
            warnings = List.copyOf(warnings);
        }
    }

    private SpecParser() {
    }

    static ParsedSpec parse(SpecDocument document, boolean allowRemoteRefs) {
        String remoteRef = document.firstRemoteRef(); // none in a multi-file spec: SpecBundler made them local
        if (remoteRef != null && !allowRemoteRefs) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE,
                    ("%s refers to another document ($ref '%s'); refs to other documents are only followed between "
                            + "the files of a multi-file spec: give its directory, or a zip, tar or tar.gz archive of "
                            + "its files, as the spec (the CLI sends a spec file's directory when it has relative "
                            + "refs), or bundle it into one document (for example `redocly bundle`)")
                            .formatted(document.raw().location(), remoteRef));
        }
        SwaggerParseResult result;
        try {
            result = remoteRef == null ? parseLocal(document) : parseResolvingRemote(document);
        }
        catch (RuntimeException e) {
            throw new SpecIngestException(Reason.SPEC_INVALID, "%s could not be parsed: %s"
                    .formatted(document.raw().location(), ParseMessages.trim(String.valueOf(e.getMessage()))));
        }
        List<String> messages = result == null || result.getMessages() == null ? List.of() : result.getMessages();
        if (result == null || result.getOpenAPI() == null) {
            throw new SpecIngestException(Reason.SPEC_INVALID, "%s could not be parsed: %s".formatted(
                    document.raw().location(), String.join("; ", ParseMessages.summary(messages))));
        }
        List<String> warnings = new ArrayList<>();
        for (String message : ParseMessages.summary(withoutSpurious(document, messages))) {
            warnings.add(document.raw().displayName() + ": " + message);
        }
        String basePath = basePath(document.tree());
        if (basePath.contains("{")) {
            // a server URL templated for the vendor's own renderer ({{AppSubUrl}}/api/v1): its template parts are
            // dropped, not sent to the target
            String declared = basePath;
            basePath = normalise(basePath.replaceAll("\\{\\{[^}]*}}|\\{[^}]*}", "").replaceAll("/{2,}", "/"));
            warnings.add(document.raw().displayName() + ": the base path '" + declared + "' holds a template the spec "
                    + "does not resolve; '" + (basePath.isEmpty() ? "/" : basePath) + "' is used");
        }
        return new ParsedSpec(document, result.getOpenAPI(), basePath, warnings);
    }

    /**
     * The parser's messages less those it gives about valid documents: swagger-parser asks for
     * {@code info.license.identifier} in OpenAPI 3.1, where it is optional (a license has a name, and an identifier
     * or a url, or neither).
     */
    private static List<String> withoutSpurious(SpecDocument document, List<String> messages) {
        if (!document.format().startsWith("openapi-3.1")) {
            return messages;
        }
        return messages.stream().filter(m -> !"attribute info.license.identifier is missing".equals(m)).toList();
    }

    private static SwaggerParseResult parseLocal(SpecDocument document) {
        if (document.isSwagger2()) {
            return new SwaggerConverter().convert(new Swagger20Parser().readWithInfo(document.tree()));
        }
        ParseOptions options = new ParseOptions();
        options.setResolve(false);
        return new OpenAPIV3Parser().parseJsonNode(document.raw().location(), document.tree(), options);
    }

    /** Only when remote refs are allowed and present: the parser reads the document again from its location. */
    private static SwaggerParseResult parseResolvingRemote(SpecDocument document) {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        String location = document.raw().baseUri() == null ? null : document.raw().baseUri().toString();
        if (document.isSwagger2()) {
            return location == null
                    ? new SwaggerConverter().readContents(document.raw().text(), null, options)
                    : new SwaggerConverter().readLocation(location, null, options);
        }
        return new OpenAPIV3Parser().readContents(document.raw().text(), null, options, location);
    }

    /** Swagger 2 {@code basePath}, or the path of the first OpenAPI 3 server URL (variables at their defaults). */
    static String basePath(JsonNode tree) {
        if (tree.has("swagger")) {
            return normalise(tree.path("basePath").asText(""));
        }
        JsonNode server = tree.path("servers").path(0);
        String url = server.path("url").asText("");
        for (Map.Entry<String, JsonNode> variable : server.path("variables").properties()) {
            url = url.replace("{" + variable.getKey() + "}", variable.getValue().path("default").asText(""));
        }
        int scheme = url.indexOf("://");
        if (scheme >= 0) {
            int slash = url.indexOf('/', scheme + 3);
            url = slash < 0 ? "" : url.substring(slash);
        }
        return normalise(url.replaceAll("[?#].*$", ""));
    }

    /** The host the spec names: Swagger 2 {@code host}, or the host of the first OpenAPI 3 server URL; "" if none. */
    static String host(JsonNode tree) {
        if (tree.has("swagger")) {
            return tree.path("host").asText("").strip().toLowerCase(java.util.Locale.ROOT);
        }
        String url = tree.path("servers").path(0).path("url").asText("");
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return "";
        }
        String rest = url.substring(scheme + 3);
        int end = rest.indexOf('/');
        return (end < 0 ? rest : rest.substring(0, end)).strip().toLowerCase(java.util.Locale.ROOT);
    }

    static String normalise(String path) {
        String trimmed = path.strip();
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        if (trimmed.isEmpty()) {
            return "";
        }
        return trimmed.startsWith("/") ? trimmed : "/" + trimmed;
    }
}
