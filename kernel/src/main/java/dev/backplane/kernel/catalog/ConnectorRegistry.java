package dev.backplane.kernel.catalog;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.plugins.BrokenPlugin;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.kernel.plugins.LoadedEngine;
import dev.backplane.kernel.plugins.PluginLoading;
import java.lang.System.Logger.Level;
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
import java.util.concurrent.locks.ReentrantLock;

/**
 * The connectors this kernel serves, by connector id ({@code <impl_id>-<version>}): those of plugin
 * jars (loaded once at start-up, the same for every tenant) and those ingested from vendor API specs
 * (global or one tenant's, served by a spec engine plugin, reloaded whenever any replica ingests),
 * plus the plugin jars that failed to load. A connector id named by the catalog index but not yet
 * ingested answers {@code connector_not_ingested} with the command that ingests it.
 */
public final class ConnectorRegistry {

    static final String TOPIC = "catalog.ingested";
    private static final System.Logger LOG = System.getLogger(ConnectorRegistry.class.getName());
    private static final String GLOBAL = "global";

    /** An ingested connector as served: the stored row and the factory built from it. */
    public record Ingested(IngestStore.Stored stored, LoadedConnector connector) {
    }

    private final Map<String, LoadedConnector> plugins = new TreeMap<>();
    private final List<BrokenPlugin> broken;
    private final Map<String, LoadedEngine> engines = new HashMap<>();
    private final ReentrantLock reloading = new ReentrantLock();
    private final IngestStore store;
    private final CatalogIndex index;
    private final IngestedBuilds builds;
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
        this.builds = new IngestedBuilds(engines, index, callTimeout);
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

    /** The ingested connector served for that owner (absent = global) and id, if it is loaded. */
    Optional<LoadedConnector> ingested(Optional<UUID> owner, String connectorId) {
        return Optional.ofNullable(ingested.getOrDefault(owner.map(UUID::toString).orElse(GLOBAL), Map.of())
                .get(connectorId)).map(Ingested::connector);
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
        throw MissingConnector.error(connectorId, index, all(tenant));
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
                        now = store.load(row.tenant(), row.connectorId()).map(s -> new Ingested(s, builds.build(s))).orElse(null);
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

    /** Whether this connector's engine could build it; the reason when not. */
    public Optional<String> problem(LoadedConnector c) {
        return c.factory() instanceof IngestedBuilds.Unserved u ? Optional.of(u.reason()) : Optional.empty();
    }

    /** The engines loaded, by name. */
    public List<String> engines() {
        return new ArrayList<>(engines.keySet());
    }
}
