package dev.backplane.plugins.openapi;

import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Hand-built ingested connectors, shaped like what spec ingest produces. */
final class Specs {

    static final String GROUP = "things";
    static final String NO_PARAMS = "{\"type\":\"object\",\"properties\":{}}";

    private Specs() {
    }

    static OperationDescriptor op(String opId, String method, String pathTemplate, ResultKind kind, String schema) {
        boolean read = method.equals("GET");
        return new OperationDescriptor(opId, GROUP, "test operation " + opId, read ? SafetyLevel.SAFE : SafetyLevel.CAUTION,
                !read, read ? OpClass.READ : OpClass.WRITE, schema, new OperationShape.Http(method, pathTemplate), kind);
    }

    static IngestedConnector connector(String basePath, AuthScheme auth, OperationDescriptor... ops) {
        ConnectorDescriptor descriptor = new ConnectorDescriptor("acme", "1.x",
                List.of(new ConnectorDescriptor.Product("acme", 443)), List.of("*"),
                auth.secretFields().isEmpty() ? AuthScheme.defaultSecretFields(auth.scheme()) : auth.secretFields());
        Catalog catalog = new Catalog(List.of(new OperationGroup(GROUP, "Things", "anything about things")), List.of(ops));
        return new IngestedConnector(descriptor, catalog, basePath, auth);
    }

    static AuthScheme auth(String scheme, Map<String, String> settings) {
        return new AuthScheme(scheme, List.of(), settings);
    }

    static OperationRequest call(String opId, Map<String, Object> params) {
        return new OperationRequest(opId, params, Optional.empty());
    }
}
