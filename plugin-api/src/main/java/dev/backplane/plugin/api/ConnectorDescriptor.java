package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What a connector implementation is.
 *
 * @param implId implementation id, lower-case ({@code k8s}, {@code harbor-legacy})
 * @param version version label of this implementation ({@code 1.x}, {@code 9.0}); the connector id is
 *     {@code <implId>-<version>}
 * @param products the product tokens this implementation serves, each with its default port
 * @param supportedVersions product-version ranges it supports, for the resolver ({@code 1.x},
 *     {@code >=1.20 <2}, {@code *}); see the kernel's resolver for the grammar
 * @param secretFields the credential fields it reads ({@code kubeconfig}, or {@code username} and
 *     {@code password})
 */
public record ConnectorDescriptor(String implId, String version, List<Product> products, List<String> supportedVersions,
                                  List<String> secretFields) {

    private static final Pattern IMPL_ID = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
    private static final Pattern VERSION = Pattern.compile("[0-9A-Za-z][0-9A-Za-z.]*");
    private static final Pattern PRODUCT = Pattern.compile("[a-z][a-z0-9-]*");

    /**
     * A product token the connector serves.
     *
     * @param token exact product token ({@code k8s}, not {@code kubernetes})
     * @param defaultPort the port a target of this product uses when none is given
     */
    public record Product(String token, int defaultPort) {
        public Product {
            requireNonNull(token, "token is null");
            if (!PRODUCT.matcher(token).matches()) {
                throw new IllegalArgumentException("product token must be lower-case letters, digits and '-': " + token);
            }
            if (defaultPort < 1 || defaultPort > 65535) {
                throw new IllegalArgumentException("default port must be 1..65535: " + defaultPort);
            }
        }
    }

    public ConnectorDescriptor {
        requireNonNull(implId, "implId is null");
        requireNonNull(version, "version is null");
        if (!IMPL_ID.matcher(implId).matches()) {
            throw new IllegalArgumentException("implId must be lower-case words joined by '-': " + implId);
        }
        if (!VERSION.matcher(version).matches()) {
            throw new IllegalArgumentException("version label must be letters, digits and dots: " + version);
        }
        products = List.copyOf(requireNonNull(products, "products is null"));
        if (products.isEmpty()) {
            throw new IllegalArgumentException("a connector serves at least one product");
        }
        supportedVersions = List.copyOf(requireNonNull(supportedVersions, "supportedVersions is null"));
        if (supportedVersions.isEmpty()) {
            throw new IllegalArgumentException("name at least one supported version range ('*' for any)");
        }
        secretFields = List.copyOf(requireNonNull(secretFields, "secretFields is null"));
    }

    /** {@code <implId>-<version>}, the id callers address. */
    public String connectorId() {
        return implId + "-" + version;
    }
}
