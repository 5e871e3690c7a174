package dev.backplane.kernel.catalog;

import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.kernel.plugins.LoadedEngine;
import dev.backplane.kernel.plugins.PluginCalls;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.TargetSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the connector a spec engine serves for a stored ingested connector, with the catalog index's probe and
 * discovery hints; a connector whose engine is missing, fails, or serves a catalog other than the ingested one is
 * still listed and reviewable, but every session of it fails with the reason.
 */
final class IngestedBuilds {

    private final Map<String, LoadedEngine> engines;
    private final CatalogIndex index;
    private final Duration callTimeout;

    IngestedBuilds(Map<String, LoadedEngine> engines, CatalogIndex index, Duration callTimeout) {
        this.engines = engines;
        this.index = index;
        this.callTimeout = callTimeout;
    }

    /** The connector its engine serves for {@code row}; one it cannot serve answers every session with why. */
    LoadedConnector build(IngestStore.Stored row) {
        LoadedEngine engine = engines.get(row.engine());
        var stored = row.connector();
        // the index, not the stored row, says how to probe the product and list its members: both improve
        // without a re-ingest
        Optional<CatalogIndex.Entry> indexed = index.byConnectorId(row.connectorId());
        var ic = new IngestedConnector(stored.descriptor(), stored.catalog(), stored.basePath(),
                stored.auth(), indexed.flatMap(CatalogIndex.Entry::probe), indexed.flatMap(CatalogIndex.Entry::discovery));
        if (engine == null) {
            return new LoadedConnector("spec-engine:" + row.engine(), null, Path.of("(no " + row.engine() + " engine)"),
                    new Unserved(ic.descriptor(), ic.catalog(), "the spec engine '" + row.engine() + "' that executes "
                            + "ingested connectors is not loaded (is plugin-repo/generic-openapi.jar missing or "
                            + "broken? see svc connector list)"), ic.descriptor(), ic.catalog(),
                    IngestedBuilds.class.getClassLoader());
        }
        try {
            ConnectorFactory f = PluginCalls.call(engine.pluginId(), engine.classLoader(), callTimeout,
                    () -> engine.engine().connector(ic));
            Catalog served = PluginCalls.call(engine.pluginId(), engine.classLoader(), callTimeout, f::catalog);
            Optional<String> problem = servedProblem(ic.catalog(), served);
            if (problem.isPresent()) {
                throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, problem.get());
            }
            return new LoadedConnector(engine.pluginId(), engine.pluginVersion(), engine.jar(), f, ic.descriptor(),
                    served, engine.classLoader());
        } catch (ConnectorException e) {
            return new LoadedConnector(engine.pluginId(), engine.pluginVersion(), engine.jar(),
                    new Unserved(ic.descriptor(), ic.catalog(), "the " + row.engine() + " engine cannot serve it: "
                            + e.getMessage()), ic.descriptor(), ic.catalog(), IngestedBuilds.class.getClassLoader());
        }
    }

    /**
     * The catalog an engine serves is the ingested one plus, at most, composite operations of its own (such
     * as Argo CD's sync-and-wait, built from ingested ones): it may not drop, change or add an operation that
     * sends a request of its own, since review and the operation index describe what was ingested.
     */
    static Optional<String> servedProblem(Catalog ingested, Catalog served) {
        Map<String, OperationDescriptor> byId = new HashMap<>();
        served.operations().forEach(op -> byId.put(op.opId(), op));
        for (var op : ingested.operations()) {
            if (!op.equals(byId.remove(op.opId()))) {
                return Optional.of("its catalog drops or changes the ingested operation " + op.opId());
            }
        }
        return byId.values().stream().filter(op -> !(op.shape() instanceof OperationShape.Composite))
                .findFirst().map(op -> "its catalog adds operation " + op.opId() + ", which is not composite");
    }

    /** An ingested connector its engine cannot serve: reviewable, but every session fails with the reason. */
    record Unserved(ConnectorDescriptor descriptor, Catalog catalog, String reason) implements ConnectorFactory {
        @Override
        public Connector open(ConnectorContext context, TargetSpec target, Credential credential) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, reason);
        }
    }
}
