package dev.backplane.kernel.catalog;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.plugins.BrokenPlugin;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.kernel.plugins.LoadedEngine;
import dev.backplane.kernel.plugins.PluginCalls;
import dev.backplane.kernel.plugins.PluginLoading;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.TargetSpec;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The connectors this kernel serves, by connector id ({@code <impl_id>-<version>}): those of plugin
 * jars (loaded once at start-up, the same for every tenant) and those ingested from vendor API specs
 * (global or one tenant's, served by a spec engine plugin, reloaded whenever any replica ingests),
 * plus the plugin jars that failed to load. A connector id named by the catalog index but not yet
 * ingested answers {@code connector_not_ingested} with the command that ingests it.
 */
public final class ConnectorRegistry {

    private final java.util.concurrent.locks.ReentrantLock reloading = new java.util.concurrent.locks.ReentrantLock();

    static final String TOPIC = "catalog.ingested";
    private static final System.Logger LOG = System.getLogger(ConnectorRegistry.class.getName());
    private static final String GLOBAL = "global";

    /** An ingested connector as served: the stored row and the factory built from it. */
    public record Ingested(IngestStore.Stored stored, LoadedConnector connector) {
    }

    private final Map<String, LoadedConnector> plugins = new TreeMap<>();
    private final List<BrokenPlugin> broken;
    private final Map<String, LoadedEngine> engines = new HashMap<>();
    private final IngestStore store;
    private final CatalogIndex index;
    private final Duration callTimeout;
    private volatile Map<String, Map<String, Ingested>> ingested = Map.of();

    public ConnectorRegistry(PluginLoading.Result loaded) {
        this(loaded, null, ChangeFeed.disabled(), CatalogIndex.empty(), Duration.ofSeconds(30));
    }

    public ConnectorRegistry(PluginLoading.Result loaded, IngestStore store, ChangeFeed feed, CatalogIndex index,
                             Duration callTimeout) {
        loaded.connectors().forEach(c -> plugins.put(c.connectorId(), c));
        loaded.engines().forEach(e -> engines.put(e.name(), e));
        this.broken = loaded.broken();
        this.store = store;
        this.index = index;
        this.callTimeout = callTimeout;
        if (store != null) {
            feed.subscribe(TOPIC, key -> reload());
            feed.onReset(this::reload);
            reload();
        }
    }

    /** The catalog index: connectors known to exist that can be ingested by name ({@code --catalog}). */
    public CatalogIndex index() {
        return index;
    }

    /** Every connector the tenant sees: plugins, global ingested ones, its own ingested ones. */
    public Collection<LoadedConnector> all(UUID tenant) {
        Map<String, LoadedConnector> out = new TreeMap<>(plugins);
        Map<String, Map<String, Ingested>> now = ingested;
        now.getOrDefault(GLOBAL, Map.of()).forEach((id, i) -> out.put(id, i.connector()));
        now.getOrDefault(tenant.toString(), Map.of()).forEach((id, i) -> out.put(id, i.connector()));
        return out.values();
    }

    /** The ingested connectors the tenant sees, by id. */
    public Map<String, Ingested> ingested(UUID tenant) {
        Map<String, Ingested> out = new TreeMap<>();
        Map<String, Map<String, Ingested>> now = ingested;
        out.putAll(now.getOrDefault(GLOBAL, Map.of()));
        out.putAll(now.getOrDefault(tenant.toString(), Map.of()));
        return out;
    }

    public List<BrokenPlugin> broken() {
        return broken;
    }

    /** Whether a plugin jar (not an ingest) provides this connector id. */
    public boolean isPlugin(String connectorId) {
        return plugins.containsKey(connectorId);
    }

    /**
     * Whether this id is a connector every tenant shares: a plugin's or a global ingest. A tenant's own ingested
     * connector (or an id no connector has) is not: such ids are tenant data and must not show outside the tenant.
     */
    public boolean isShared(String connectorId) {
        return plugins.containsKey(connectorId) || ingested.getOrDefault(GLOBAL, Map.of()).containsKey(connectorId);
    }

    public Optional<LoadedConnector> find(UUID tenant, String connectorId) {
        LoadedConnector c = plugins.get(connectorId);
        if (c != null) {
            return Optional.of(c);
        }
        Map<String, Map<String, Ingested>> now = ingested;
        Ingested i = now.getOrDefault(tenant.toString(), Map.of()).get(connectorId);
        if (i == null) {
            i = now.getOrDefault(GLOBAL, Map.of()).get(connectorId);
        }
        return Optional.ofNullable(i).map(Ingested::connector);
    }

    /**
     * The connector, or {@code 404 connector_not_ingested} with the ingest command when the catalog
     * index names it but nobody ingested its spec yet, or {@code 404 unknown_connector} listing the
     * valid ids (a bare product name such as {@code k8s} is not a connector id; {@code k8s-1.x} is).
     */
    public LoadedConnector require(UUID tenant, String connectorId) {
        Optional<LoadedConnector> found = find(tenant, connectorId);
        if (found.isEmpty() && store != null && store.exists(tenant, connectorId)) {
            reload(); // ingested on another replica a moment ago; its notification is still on the way
            found = find(tenant, connectorId);
        }
        if (found.isPresent()) {
            return found.get();
        }
        Optional<CatalogIndex.Entry> known = index.byConnectorId(connectorId);
        if (known.isPresent()) {
            String verb = "svc connector ingest --catalog " + known.get().product() + "/" + known.get().version();
            throw CatalogErrors.CONNECTOR_NOT_INGESTED.error("connector " + connectorId + " is registered in the "
                            + "catalog index but its API spec was never ingested; ingest it with: " + verb)
                    .withExtras("next_step", Map.of("verb", verb, "why", "ingest the vendor API spec; its operations "
                            + "then arrive staged and default-deny for review"));
        }
        Collection<LoadedConnector> visible = all(tenant);
        List<String> valid = visible.stream().map(LoadedConnector::connectorId).toList();
        List<String> forProduct = visible.stream()
                .filter(x -> x.descriptor().products().stream().anyMatch(p -> p.token().equals(connectorId))
                        || x.descriptor().implId().equals(connectorId))
                .map(LoadedConnector::connectorId).toList();
        String hint = forProduct.isEmpty() ? "" : "; '" + connectorId + "' is a product or implementation, "
                + "its connector id is " + String.join(" or ", forProduct);
        throw CatalogErrors.UNKNOWN_CONNECTOR.error("no connector '" + connectorId + "'" + hint
                        + " (connector ids have the form <impl_id>-<version>)")
                .withExtras("valid_connector_ids", valid);
    }

    /** Re-reads the ingested connectors, rebuilding only those whose stored revision changed. */
    public void reload() {
        // a lock, not synchronized: the body reads the database, and a virtual thread must not pin its carrier
        reloading.lock();
        try {
            if (store == null) {
                return;
            }
            List<IngestStore.Revision> rows;
            try {
                rows = store.revisions();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not reload ingested connectors; serving the previous set: " + e.getMessage());
                return;
            }
            Map<String, Map<String, Ingested>> previous = ingested;
            Map<String, Map<String, Ingested>> next = new HashMap<>();
            for (IngestStore.Revision row : rows) {
                String scope = row.tenant().map(UUID::toString).orElse(GLOBAL);
                Ingested old = previous.getOrDefault(scope, Map.of()).get(row.connectorId());
                Ingested now = old;
                if (old == null || !old.stored().revision().equals(row.revision())) {
                    try {
                        now = store.load(row.tenant(), row.connectorId()).map(s -> new Ingested(s, build(s))).orElse(null);
                    } catch (RuntimeException e) {
                        LOG.log(Level.ERROR, "ingested connector " + row.connectorId() + " (" + scope + ") cannot be "
                                + "loaded; keeping the previous version if any: " + e.getMessage());
                    }
                }
                if (now != null) {
                    next.computeIfAbsent(scope, s -> new LinkedHashMap<>()).put(row.connectorId(), now);
                }
            }
            ingested = Map.copyOf(next);
        } finally {
            reloading.unlock();
        }
    }

    private LoadedConnector build(IngestStore.Stored row) {
        LoadedEngine engine = engines.get(row.engine());
        var stored = row.connector();
        // the index, not the stored row, says how to probe the product and list its members: both improve
        // without a re-ingest
        Optional<CatalogIndex.Entry> indexed = index.byConnectorId(row.connectorId());
        var ic = new dev.backplane.plugin.api.IngestedConnector(stored.descriptor(), stored.catalog(), stored.basePath(),
                stored.auth(), indexed.flatMap(CatalogIndex.Entry::probe), indexed.flatMap(CatalogIndex.Entry::discovery));
        if (engine == null) {
            return new LoadedConnector("spec-engine:" + row.engine(), null, Path.of("(no " + row.engine() + " engine)"),
                    new Unserved(ic.descriptor(), ic.catalog(), "the spec engine '" + row.engine() + "' that executes "
                            + "ingested connectors is not loaded (is plugin-repo/generic-openapi.jar missing or "
                            + "broken? see svc connector list)"), ic.descriptor(), ic.catalog(),
                    ConnectorRegistry.class.getClassLoader());
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
                            + e.getMessage()), ic.descriptor(), ic.catalog(), ConnectorRegistry.class.getClassLoader());
        }
    }

    /**
     * The catalog an engine serves is the ingested one plus, at most, composite operations of its own (such
     * as Argo CD's sync-and-wait, built from ingested ones): it may not drop, change or add an operation that
     * sends a request of its own, since review and the operation index describe what was ingested.
     */
    static Optional<String> servedProblem(Catalog ingested, Catalog served) {
        Map<String, dev.backplane.plugin.api.OperationDescriptor> byId = new HashMap<>();
        served.operations().forEach(op -> byId.put(op.opId(), op));
        for (var op : ingested.operations()) {
            if (!op.equals(byId.remove(op.opId()))) {
                return Optional.of("its catalog drops or changes the ingested operation " + op.opId());
            }
        }
        return byId.values().stream().filter(op -> !(op.shape() instanceof dev.backplane.plugin.api.OperationShape.Composite))
                .findFirst().map(op -> "its catalog adds operation " + op.opId() + ", which is not composite");
    }

    /** Whether this connector's engine could build it; the reason when not. */
    public Optional<String> problem(LoadedConnector c) {
        return c.factory() instanceof Unserved u ? Optional.of(u.reason) : Optional.empty();
    }

    /** The engines loaded, by name. */
    public List<String> engines() {
        return new ArrayList<>(engines.keySet());
    }

    /** An ingested connector its engine cannot serve: reviewable, but every session fails with the reason. */
    private record Unserved(ConnectorDescriptor descriptor, Catalog catalog, String reason) implements ConnectorFactory {
        @Override
        public Connector open(ConnectorContext context, TargetSpec target, Credential credential) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, reason);
        }
    }
}
