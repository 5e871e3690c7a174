package dev.backplane.kernel.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Serves the OpenAPI document of the REST API at {@code /openapi.yaml}, and as JSON at {@code /openapi.json}
 * for client generators. The document is the contract with the CLI: KernelApiIT fails when it and the declared
 * routes drift, and when an operation lacks a unique operationId or a declared tag.
 */
public final class OpenApiRoutes {

    /** Classpath location of the document. */
    public static final String RESOURCE = "openapi/svc-openapi.yaml";

    private final byte[] document;
    private final byte[] json;

    public OpenApiRoutes() {
        try (InputStream in = OpenApiRoutes.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing " + RESOURCE + " on the classpath");
            }
            document = in.readAllBytes();
            json = new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(
                    new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
                            .readTree(document));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void register(ApiRoutes api) {
        api.publicRoute(Method.GET, "/openapi.yaml", (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, "application/yaml");
            res.send(document);
        });
        api.publicRoute(Method.GET, "/openapi.json", (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(json);
        });
    }
}
