package dev.backplane.kernel.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import dev.backplane.plugin.api.TargetSpec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A small HTTP connector (basic auth, two operations) used to exercise the conformance kit. */
final class DemoHttpConnector implements ConnectorFactory {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},"
            + "\"additionalProperties\":false}";

    @Override
    public ConnectorDescriptor descriptor() {
        return new ConnectorDescriptor("demohttp", "1.x", List.of(new ConnectorDescriptor.Product("demohttp", 8443)),
                List.of("1.x"), List.of("username", "password"));
    }

    @Override
    public Catalog catalog() {
        return new Catalog(List.of(new OperationGroup("items", "Items", "inventory")), List.of(
                new OperationDescriptor("demohttp.item.list", "items", "List items", SafetyLevel.SAFE, false, OpClass.READ,
                        SCHEMA, new OperationShape.Http("GET", "/items"), ResultKind.SET),
                new OperationDescriptor("demohttp.item.delete", "items", "Delete an item", SafetyLevel.DANGEROUS, true,
                        OpClass.WRITE, SCHEMA, new OperationShape.Http("DELETE", "/items/{name}"), ResultKind.OBJECT)));
    }

    @Override
    public Connector open(ConnectorContext ctx, TargetSpec target, Credential credential) {
        String auth = "Basic " + Base64.getEncoder().encodeToString((credential.field("username") + ":"
                + credential.field("password")).getBytes(StandardCharsets.UTF_8));
        String base = "http://" + target.host() + ":" + target.port();
        return new Connector() {
            private HttpResponse<String> get(String path) {
                try {
                    HttpResponse<String> r = ctx.httpClient().send(HttpRequest.newBuilder(URI.create(base + path))
                            .header("Authorization", auth).build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 401) {
                        throw new ConnectorException(ErrorCode.CONNECTOR_AUTH_FAILED, "the target rejected the credential");
                    }
                    return r;
                } catch (IOException e) {
                    throw new ConnectorException(ErrorCode.CONNECTOR_UNREACHABLE, "cannot reach " + base + ": " + e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "interrupted");
                }
            }

            @Override
            public Fingerprint probe() {
                HttpResponse<String> r = get("/version");
                return new Fingerprint(Optional.of("demo"), Optional.of("demohttp"), Optional.of(r.body().trim()), true,
                        ctx.clock().instant(), "GET /version");
            }

            @Override
            @SuppressWarnings("unchecked")
            public OperationResult invoke(OperationRequest request) {
                ctx.logger().log(System.Logger.Level.INFO, "invoking " + request.opId());
                return switch (request.opId()) {
                    case "demohttp.item.list" -> {
                        try {
                            yield new OperationResult.Rows(JSON.readValue(get("/items").body(), List.class));
                        } catch (IOException e) {
                            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "bad JSON from target");
                        }
                    }
                    case "demohttp.item.delete" -> new OperationResult.Document(Map.of("deleted", request.params().get("name")));
                    default -> new OperationResult.Failure(ErrorCode.UNKNOWN_OPERATION, "no operation " + request.opId(),
                            Map.of());
                };
            }

            @Override
            public Optional<HttpPreview> preview(OperationRequest request) {
                return Optional.of(new HttpPreview("GET", "/items", Map.of(), Optional.empty()));
            }

            @Override
            public void close() {
            }
        };
    }
}
