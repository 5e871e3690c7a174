package dev.backplane.kernel.catalog;

import dev.backplane.kernel.catalog.plugins.BrokenPlugin;
import dev.backplane.kernel.catalog.plugins.LoadedConnector;
import dev.backplane.kernel.catalog.plugins.PluginLoading;
import dev.backplane.kernel.http.ApiException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The connectors this kernel serves, by connector id ({@code <impl_id>-<version>}), and the plugin
 * jars that failed to load. Built once at start-up from the plugin directory.
 */
public final class ConnectorRegistry {

    private final Map<String, LoadedConnector> connectors = new TreeMap<>();
    private final List<BrokenPlugin> broken;

    public ConnectorRegistry(PluginLoading.Result loaded) {
        loaded.connectors().forEach(c -> connectors.put(c.connectorId(), c));
        this.broken = loaded.broken();
    }

    public Collection<LoadedConnector> all() {
        return connectors.values();
    }

    public List<BrokenPlugin> broken() {
        return broken;
    }

    public Optional<LoadedConnector> find(String connectorId) {
        return Optional.ofNullable(connectors.get(connectorId));
    }

    /**
     * The connector, or {@code 404 unknown_connector} listing the valid ids (a bare product name such
     * as {@code k8s} is not a connector id; {@code k8s-1.x} is).
     */
    public LoadedConnector require(String connectorId) {
        LoadedConnector c = connectors.get(connectorId);
        if (c != null) {
            return c;
        }
        List<String> valid = List.copyOf(connectors.keySet());
        List<String> forProduct = connectors.values().stream()
                .filter(x -> x.descriptor().products().stream().anyMatch(p -> p.token().equals(connectorId))
                        || x.descriptor().implId().equals(connectorId))
                .map(LoadedConnector::connectorId).toList();
        String hint = forProduct.isEmpty() ? "" : "; '" + connectorId + "' is a product or implementation, "
                + "its connector id is " + String.join(" or ", forProduct);
        throw ApiException.notFound("unknown_connector", "no connector '" + connectorId + "'" + hint
                        + " (connector ids have the form <impl_id>-<version>)")
                .withExtras("valid_connector_ids", valid);
    }
}
