package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A connector built from a vendor API spec, as the kernel hands it to a {@link SpecConnectorEngine}.
 *
 * <p>Each operation is HTTP-shaped ({@link OperationShape.Http}, path relative to {@code basePath}).
 * Where each parameter goes is recorded in its params schema: every top-level property carries
 * {@value #IN_KEYWORD} ({@code path}, {@code query}, {@code header} or {@code body}) and, when the
 * property name differs from the name on the wire, {@value #NAME_KEYWORD}. The request body, when the
 * operation has one, is the property with {@code "x-svc-in": "body"}; a body that is not JSON names
 * its media type with {@value #CONTENT_TYPE_KEYWORD}. An operation at the base path itself has the
 * path template {@code /}, which resolves to the base path with no trailing slash.
 *
 * @param descriptor identity, product and the secret fields the auth scheme reads
 * @param catalog groups and operations
 * @param basePath path prefix of every operation ({@code /admin/realms}, {@code /api/v2.0}); "" for none
 * @param auth how requests authenticate
 * @param probe how to identify the product behind a target (since 1.6); empty: the engine's generic probe
 * @param discovery how to find further targets through a target (since 1.8); empty: the connector offers no
 *     {@link Discovery}
 * @since 1.2
 */
public record IngestedConnector(ConnectorDescriptor descriptor, Catalog catalog, String basePath, AuthScheme auth,
                                Optional<ProductProbe> probe, Optional<ProductDiscovery> discovery) {

    /** Params-schema keyword naming a property's location: path, query, header or body. */
    public static final String IN_KEYWORD = "x-svc-in";
    /** Params-schema keyword naming a property's name on the wire, when it differs from the property name. */
    public static final String NAME_KEYWORD = "x-svc-name";
    /** Params-schema keyword on the body property naming a non-JSON media type (form-encoded, text, ...). */
    public static final String CONTENT_TYPE_KEYWORD = "x-svc-content-type";

    public IngestedConnector {
        requireNonNull(descriptor, "descriptor is null");
        requireNonNull(catalog, "catalog is null");
        requireNonNull(basePath, "basePath is null");
        requireNonNull(auth, "auth is null");
        requireNonNull(probe, "probe is null");
        requireNonNull(discovery, "discovery is null");
        if (!basePath.isEmpty() && (!basePath.startsWith("/") || basePath.endsWith("/"))) {
            throw new IllegalArgumentException("basePath must be empty or start with '/' and not end with '/': "
                    + basePath);
        }
        for (OperationDescriptor op : catalog.operations()) {
            if (!(op.shape() instanceof OperationShape.Http)) {
                throw new IllegalArgumentException("ingested operation " + op.opId() + " is not HTTP-shaped");
            }
        }
    }

    /** A connector without discovery (the constructor of plugin-api 1.6 and 1.7). */
    public IngestedConnector(ConnectorDescriptor descriptor, Catalog catalog, String basePath, AuthScheme auth,
                             Optional<ProductProbe> probe) {
        this(descriptor, catalog, basePath, auth, probe, Optional.empty());
    }

    /** A connector without a product probe (the constructor of plugin-api before 1.6). */
    public IngestedConnector(ConnectorDescriptor descriptor, Catalog catalog, String basePath, AuthScheme auth) {
        this(descriptor, catalog, basePath, auth, Optional.empty(), Optional.empty());
    }
}
