package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.ingest.SpecIngestException.Reason;
import dev.backplane.ingest.SpecReader.RawSpec;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import io.swagger.v3.parser.util.DeserializationUtils;
import java.util.Map;

/**
 * A spec's raw JSON tree and the facts read from it before the OpenAPI parser runs: the format, the
 * {@code info} block, and whether it points at other documents.
 */
record SpecDocument(RawSpec raw, JsonNode tree, String format, String title, String infoVersion) {

    static {
        // swagger-parser reads YAML with a limit of 3,145,728 code points (a JVM-wide option), far below our byte cap
        // (IngestOptions#maxBytes, checked before the text is read): a large YAML spec was refused while the same
        // document as JSON was read. Its other YAML limits (aliases, depth, references) stay as they are.
        DeserializationUtils.getOptions().setMaxYamlCodePoints(Integer.MAX_VALUE);
    }

    SpecDocument {
        requireNonNull(raw, "raw is null");
        requireNonNull(tree, "tree is null");
        requireNonNull(format, "format is null");
        requireNonNull(title, "title is null");
        requireNonNull(infoVersion, "infoVersion is null");
    }

    static SpecDocument of(RawSpec raw) {
        JsonNode tree;
        try {
            // a multi-file spec is read as one document with its refs between files made local
            tree = raw.multiFile() ? SpecBundler.bundle(raw.location(), raw.files(), raw.root())
                    : DeserializationUtils.deserializeIntoTree(raw.text(), raw.location(), null, new SwaggerParseResult());
        }
        catch (SpecIngestException e) {
            throw e;
        }
        catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            String why = String.valueOf(cause.getMessage()).replaceAll(";\\s*Max code points: \\d+\\s*$", "");
            throw invalid(raw, "it is neither JSON nor YAML (" + ParseMessages.trim(why) + ")");
        }
        if (tree == null || !tree.isObject()) {
            throw invalid(raw, "it is not a JSON or YAML object");
        }
        String format;
        String swagger = tree.path("swagger").asText("");
        String openapi = tree.path("openapi").asText("");
        if (swagger.equals("2.0")) {
            format = "swagger-2.0";
        }
        else if (openapi.startsWith("3.0") || openapi.startsWith("3.1")) {
            format = "openapi-" + openapi;
        }
        else {
            throw invalid(raw, "it has no 'swagger: \"2.0\"' or 'openapi: 3.0.x / 3.1.x' field");
        }
        JsonNode info = tree.path("info");
        if (!info.path("version").isValueNode()) {
            throw invalid(raw, "it has no info.version");
        }
        return new SpecDocument(raw, tree, format, info.path("title").asText(""), info.path("version").asText());
    }

    boolean isSwagger2() {
        return format.equals("swagger-2.0");
    }

    boolean isOpenApi31() {
        return format.startsWith("openapi-3.1");
    }

    /** The first {@code $ref} that names another document (a file, a URL), or null when every ref is local. */
    String firstRemoteRef() {
        return firstRemoteRef(tree);
    }

    private static String firstRemoteRef(JsonNode node) {
        if (node.isArray()) {
            for (JsonNode element : node) {
                String found = firstRemoteRef(element);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
        if (!node.isObject()) {
            return null;
        }
        JsonNode ref = node.get("$ref");
        if (ref != null && ref.isTextual() && !ref.asText().startsWith("#")) {
            return ref.asText();
        }
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String key = field.getKey();
            // literal data, not structure: a "$ref" inside an example or a default is text, not a reference
            if (key.equals("example") || key.equals("default") || key.equals("enum") || key.equals("const")
                    || key.startsWith("x-")) {
                continue;
            }
            String found = firstRemoteRef(field.getValue());
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static SpecIngestException invalid(RawSpec raw, String why) {
        return new SpecIngestException(Reason.SPEC_INVALID,
                "%s is not an OpenAPI 2.0, 3.0 or 3.1 document: %s".formatted(raw.location(), why));
    }
}
