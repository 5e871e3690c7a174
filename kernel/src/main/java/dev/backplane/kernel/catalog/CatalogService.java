package dev.backplane.kernel.catalog;

import dev.backplane.kernel.catalog.CatalogViews.CatalogEntry;
import dev.backplane.kernel.catalog.CatalogViews.ConnectorSummary;
import dev.backplane.kernel.catalog.CatalogViews.GroupView;
import dev.backplane.kernel.catalog.CatalogViews.Implementation;
import dev.backplane.kernel.catalog.CatalogViews.Review;
import dev.backplane.kernel.catalog.CatalogViews.ReviewChange;
import dev.backplane.kernel.catalog.CatalogViews.SearchHit;
import dev.backplane.kernel.catalog.CatalogViews.SearchResult;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.util.Digests;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The connector catalog as a tenant sees it, and its review. Connectors come from plugins and are
 * the same for every tenant; review state, per-operation overrides and group edits belong to each
 * tenant (one tenant's admin cannot open operations for another). Everything is default-deny: no
 * review row means staged, no override means the operation is not enabled.
 */
public final class CatalogService {

    public static final Set<String> STATUSES = Set.of("staged", "enabled", "disabled");
    /**
     * The status of a catalog-index entry this tenant has no connector for yet: listed so every family
     * the deploy offers shows in {@code svc connector list}, with the command that ingests it.
     */
    public static final String NOT_INGESTED = "not_ingested";
    public static final int SEARCH_LIMIT_MAX = 50;
    public static final int SEARCH_LIMIT_DEFAULT = 10;

    private final ConnectorRegistry registry;
    private final ReviewStore store;
    /** Search indexes per loaded connector, by identity (an ingested connector is replaced whole on re-ingest). */
    private final com.github.benmanes.caffeine.cache.Cache<LoadedConnector, OperationIndex> search =
            com.github.benmanes.caffeine.cache.Caffeine.newBuilder().weakKeys().build();
    private final RetrievalEngine retrieval;

    public CatalogService(ConnectorRegistry registry, Jdbc jdbc, dev.backplane.kernel.persistence.ChangeFeed feed,
                          RetrievalEngine retrieval) {
        this.registry = registry;
        this.store = new ReviewStore(jdbc, feed);
        this.retrieval = retrieval;
    }

    public ConnectorRegistry registry() {
        return registry;
    }

    public List<ConnectorSummary> list(UUID tenant, Optional<String> status) {
        status.ifPresent(s -> {
            if (!s.equals("all") && !s.equals("broken") && !s.equals(NOT_INGESTED) && !STATUSES.contains(s)) {
                throw CommonErrors.INVALID_STATUS.error("status must be staged, enabled, disabled, broken, "
                        + "not_ingested or all, got '" + s + "'", Map.of("field", "status"));
            }
        });
        Map<String, String> statuses = store.statuses(tenant);
        List<ConnectorSummary> out = new ArrayList<>();
        for (LoadedConnector c : registry.all(tenant)) {
            out.add(summary(c, statuses.getOrDefault(c.connectorId(), "staged"), store.overrides(tenant, c.connectorId())));
        }
        registry.broken().forEach(b -> out.add(new ConnectorSummary(b.pluginId().orElse(b.file()), Optional.empty(),
                Optional.empty(), List.of(), List.of(), "broken", 0, 0, "plugin", Optional.of(b.file()),
                Optional.empty(), Optional.of(b.reason()))));
        Set<String> listed = new java.util.HashSet<>();
        out.forEach(c -> listed.add(c.connectorId()));
        registry.index().entries().stream().filter(e -> !listed.contains(e.connectorId()))
                .sorted(java.util.Comparator.comparing(CatalogIndex.Entry::connectorId))
                .forEach(e -> out.add(new ConnectorSummary(e.connectorId(), Optional.of(e.implId()),
                        Optional.of(e.version()), List.of(e.product()), List.of(e.version()), NOT_INGESTED, 0, 0,
                        "catalog", Optional.empty(), Optional.empty(), Optional.of(e.description()
                        + "; ingest it with: svc connector ingest --catalog " + e.product() + "/" + e.version()))));
        return status.filter(s -> !s.equals("all")).map(s -> out.stream().filter(c -> c.status().equals(s)).toList())
                .orElse(out);
    }

    /**
     * Every loaded connector's operations with their params schemas — what the CLI builds its
     * per-family verbs from — and a revision that changes whenever any of it does.
     */
    public OperationCatalog operationCatalog(UUID tenant) {
        List<Map<String, Object>> connectors = new ArrayList<>();
        StringBuilder digestInput = new StringBuilder();
        for (LoadedConnector c : registry.all(tenant)) {
            Map<String, ReviewStore.OpOverride> overrides = store.overrides(tenant, c.connectorId());
            List<Map<String, Object>> ops = new ArrayList<>();
            for (OperationDescriptor d : c.catalog().operations()) {
                OperationView v = OperationView.of(d, overrides.get(d.opId()));
                Map<String, Object> op = new java.util.LinkedHashMap<>();
                op.put("op_id", d.opId());
                op.put("group_key", d.groupKey());
                op.put("description", v.customDescription().orElse(d.description()));
                op.put("safety_level", v.safetyLevel());
                op.put("requires_approval", v.requiresApproval());
                op.put("op_class", v.opClass());
                op.put("result_kind", v.resultKind());
                op.put("params_schema", schemaTree(d.paramsSchema()));
                ops.add(op);
                digestInput.append(c.connectorId()).append('|').append(d.opId()).append('|').append(d.paramsSchema())
                        .append('|').append(op.get("description")).append('|').append(v.safetyLevel()).append('\n');
            }
            Map<String, Object> entry = new java.util.LinkedHashMap<>();
            entry.put("connector_id", c.connectorId());
            entry.put("impl_id", c.descriptor().implId());
            entry.put("version", c.descriptor().version());
            entry.put("products", c.descriptor().products().stream().map(ConnectorDescriptor.Product::token).toList());
            entry.put("operations", ops);
            connectors.add(entry);
        }
        return new OperationCatalog(Digests.sha256Hex(digestInput.toString()), connectors);
    }

    private static com.fasterxml.jackson.databind.JsonNode schemaTree(String schema) {
        try {
            return dev.backplane.kernel.http.Json.mapper().readTree(schema);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a loaded plugin's params schema is not JSON", e); // loading validated it
        }
    }

    /** The operation catalog: a content revision and the connectors with their operations. */
    public record OperationCatalog(String revision, List<Map<String, Object>> connectors) {
    }

    public Review review(UUID tenant, String connectorId) {
        LoadedConnector c = registry.require(tenant, connectorId);
        Map<String, ReviewStore.OpOverride> overrides = store.overrides(tenant, connectorId);
        List<OperationView> ops = views(c, overrides);
        return new Review(summary(c, store.status(tenant, connectorId), overrides), c.descriptor().secretFields(),
                groupViews(tenant, c, ops), ops);
    }

    public List<GroupView> groups(UUID tenant, String connectorId) {
        LoadedConnector c = registry.require(tenant, connectorId);
        return groupViews(tenant, c, views(c, store.overrides(tenant, connectorId)));
    }

    public ReviewChange enable(UUID tenant, String connectorId, String actor) {
        registry.require(tenant, connectorId);
        String before = store.status(tenant, connectorId);
        if (before.equals("enabled")) {
            return new ReviewChange(connectorId, before, before, 0, "already enabled; nothing changed");
        }
        store.setStatus(tenant, connectorId, "enabled", actor);
        return new ReviewChange(connectorId, before, "enabled", 0,
                "enabled: its enabled operations are now dispatchable");
    }

    public ReviewChange disable(UUID tenant, String connectorId, String actor) {
        registry.require(tenant, connectorId);
        String before = store.status(tenant, connectorId);
        if (!before.equals("enabled")) {
            throw CatalogErrors.INVALID_TRANSITION.error("connector " + connectorId + " is "
                    + before + "; only an enabled connector can be disabled", Map.of("status", before));
        }
        store.setStatus(tenant, connectorId, "disabled", actor);
        return new ReviewChange(connectorId, before, "disabled", 0,
                "disabled: nothing is dispatchable; per-operation overrides are kept");
    }

    public ReviewChange enableReads(UUID tenant, String connectorId, String actor) {
        LoadedConnector c = registry.require(tenant, connectorId);
        String status = store.status(tenant, connectorId);
        List<String> reads = c.catalog().operations().stream().filter(OperationDescriptor::isReadClass)
                .map(OperationDescriptor::opId).toList();
        int changed = store.enableAll(tenant, connectorId, reads, actor);
        return new ReviewChange(connectorId, status, status, changed, changed + " read operation(s) newly enabled of "
                + reads.size() + "; writes stay default-deny" + (status.equals("enabled") ? ""
                : "; the connector is " + status + ", enable it to make them dispatchable"));
    }

    /**
     * A sparse change of one operation's overrides.
     *
     * @param customDescription new custom description ("" clears it)
     */
    public OperationView editOperation(UUID tenant, String connectorId, String opId, Optional<String> customDescription,
                                       Optional<String> safetyLevel, Optional<Boolean> requiresApproval,
                                       Optional<Boolean> isEnabled, String actor) {
        LoadedConnector c = registry.require(tenant, connectorId);
        OperationDescriptor op = operation(c, opId);
        safetyLevel.ifPresent(s -> {
            if (!Set.of("safe", "caution", "dangerous").contains(s)) {
                throw CatalogErrors.INVALID_OVERRIDE.error("safety_level must be safe, caution or dangerous, "
                        + "got '" + s + "'", Map.of("field", "safety_level"));
            }
        });
        if (customDescription.isEmpty() && safetyLevel.isEmpty() && requiresApproval.isEmpty() && isEnabled.isEmpty()) {
            throw CatalogErrors.INVALID_OVERRIDE.error("nothing to change: give custom_description, "
                    + "safety_level, requires_approval or is_enabled", Map.of());
        }
        boolean clear = customDescription.map(String::isBlank).orElse(false);
        store.mergeOverride(tenant, connectorId, opId, new ReviewStore.OpOverride(
                customDescription.filter(d -> !d.isBlank()), safetyLevel, requiresApproval, isEnabled), clear, actor);
        return OperationView.of(op, store.overrides(tenant, connectorId).get(opId));
    }

    public GroupView editGroup(UUID tenant, String connectorId, String groupKey, Optional<String> displayName,
                               Optional<String> whenToUse, String actor) {
        LoadedConnector c = registry.require(tenant, connectorId);
        if (c.catalog().groups().stream().noneMatch(g -> g.groupKey().equals(groupKey))) {
            throw CatalogErrors.UNKNOWN_GROUP.error("connector " + connectorId + " has no group '" + groupKey + "'")
                    .withExtras("valid_groups", c.catalog().groups().stream().map(OperationGroup::groupKey).toList());
        }
        if (displayName.isEmpty() && whenToUse.isEmpty()) {
            throw CatalogErrors.INVALID_GROUP_EDIT.error("nothing to change: give name or when_to_use", Map.of());
        }
        if (displayName.map(String::isBlank).orElse(false)) {
            throw CatalogErrors.INVALID_GROUP_EDIT.error("name must not be blank", Map.of("field", "name"));
        }
        store.mergeGroupEdit(tenant, connectorId, groupKey, new ReviewStore.GroupEdit(displayName, whenToUse), actor);
        return groups(tenant, connectorId).stream().filter(g -> g.groupKey().equals(groupKey)).findFirst().orElseThrow();
    }

    /** A search an operator or agent makes, recorded for {@code svc retrieval usage} (without its text). */
    public SearchResult search(Caller caller, SearchLog.Transport via, String connectorId, String query,
                               Optional<String> group, int limit) {
        return retrieval.searches().record(caller, SearchLog.Surface.OPERATIONS, via, query,
                () -> search(caller.tenantId(), connectorId, query, group, limit), r -> r.hits().size());
    }

    /** A search that is not recorded (the retrieval eval's own). */
    public SearchResult search(UUID tenant, String connectorId, String query, Optional<String> group, int limit) {
        return search(tenant, connectorId, query, group, limit, RetrievalEngine.Mode.HYBRID);
    }

    /** Whether the dense side of a connector's operation search is in (it is prepared in the background). */
    public boolean searchVectorsReady(UUID tenant, String connectorId) {
        return index(registry.require(tenant, connectorId)).denseReady();
    }

    /** The connector's search index; one whose vectors could not be prepared is made anew (and retries). */
    private OperationIndex index(LoadedConnector c) {
        OperationIndex index = search.get(c, x -> new OperationIndex(x, retrieval));
        if (index.denseFailed()) {
            search.asMap().remove(c, index);
            index = search.get(c, x -> new OperationIndex(x, retrieval));
        }
        return index;
    }

    /** Operation search on the hybrid engine; {@code mode} is for measuring one side alone. */
    public SearchResult search(UUID tenant, String connectorId, String query, Optional<String> group, int limit,
                               RetrievalEngine.Mode mode) {
        LoadedConnector c = registry.require(tenant, connectorId);
        RetrievalEngine.requireQuery(query);
        int clamped = Math.max(1, Math.min(SEARCH_LIMIT_MAX, limit));
        Map<String, ReviewStore.OpOverride> overrides = store.overrides(tenant, connectorId);
        Map<String, String> custom = new HashMap<>();
        overrides.forEach((id, o) -> o.customDescription().ifPresent(d -> custom.put(id, d)));
        OperationIndex index = index(c);
        List<SearchHit> hits = index.search(retrieval, tenant, query, group, clamped, custom, mode).stream().map(h -> {
            OperationView v = OperationView.of(h.op(), overrides.get(h.op().opId()));
            return new SearchHit(v.opId(), v.safetyLevel(), v.requiresApproval(), v.description(), v.groupKey(),
                    v.isEnabled(), Math.round(h.score() * 1e6) / 1e6);
        }).toList();
        return new SearchResult(connectorId, query, group, clamped, hits);
    }

    /**
     * The operation as the tenant sees it, with whether it may be dispatched at all (connector enabled
     * and operation enabled).
     *
     * @throws DomainException {@code unknown_connector} or {@code unknown_operation}
     */
    public EffectiveOperation effective(UUID tenant, String connectorId, String opId) {
        LoadedConnector c = registry.require(tenant, connectorId);
        OperationDescriptor op = operation(c, opId);
        OperationView view = OperationView.of(op, store.overrides(tenant, connectorId).get(opId));
        boolean enabled = store.status(tenant, connectorId).equals("enabled");
        return new EffectiveOperation(c, op, view, enabled && view.isEnabled());
    }

    /**
     * An operation ready for the policy gate.
     *
     * @param connector the loaded connector
     * @param descriptor the plugin's descriptor (schema, shape)
     * @param view the tenant's effective view (safety level, requires_approval after overrides)
     * @param dispatchable connector enabled and operation enabled
     */
    public record EffectiveOperation(LoadedConnector connector, OperationDescriptor descriptor, OperationView view,
                                     boolean dispatchable) {
    }

    /** The plugin's descriptor of an operation ({@code unknown_connector} / {@code unknown_operation} otherwise). */
    public OperationDescriptor descriptor(UUID tenant, String connectorId, String opId) {
        return operation(registry.require(tenant, connectorId), opId);
    }

    /** The tenant's review status of a connector: staged (the default), enabled or disabled. */
    public String status(UUID tenant, String connectorId) {
        return store.status(tenant, connectorId);
    }

    /** Whether the tenant may dispatch this operation at all (connector enabled and operation enabled). */
    public boolean isDispatchable(UUID tenant, String connectorId, String opId) {
        if (!store.status(tenant, connectorId).equals("enabled")) {
            return false;
        }
        ReviewStore.OpOverride o = store.overrides(tenant, connectorId).get(opId);
        return o != null && o.isEnabled().orElse(false);
    }

    /**
     * The connectors a probe or discovery for this tenant may go through, each given the target's
     * credential: plugin jars (code the deployer installed) and the ingested connectors this tenant
     * has reviewed and enabled. A staged or disabled ingest — which its ingester, not this tenant,
     * wrote — never gets a tenant's credential.
     */
    public List<LoadedConnector> probeable(UUID tenant) {
        return registry.all(tenant).stream().filter(c -> registry.isPlugin(c.connectorId())
                || store.status(tenant, c.connectorId()).equals("enabled")).toList();
    }

    public List<CatalogEntry> catalogList(UUID tenant) {
        Map<String, List<Implementation>> byProduct = new TreeMap<>();
        Map<String, Integer> ports = new HashMap<>();
        for (LoadedConnector c : registry.all(tenant)) {
            ConnectorDescriptor d = c.descriptor();
            for (ConnectorDescriptor.Product p : d.products()) {
                byProduct.computeIfAbsent(p.token(), k -> new ArrayList<>())
                        .add(new Implementation(d.connectorId(), d.implId(), d.version(), d.supportedVersions()));
                ports.putIfAbsent(p.token(), p.defaultPort());
            }
        }
        List<CatalogEntry> out = new ArrayList<>();
        byProduct.forEach((product, impls) -> out.add(new CatalogEntry(product, ports.get(product), impls)));
        return out;
    }

    private static OperationDescriptor operation(LoadedConnector c, String opId) {
        return c.catalog().operations().stream().filter(o -> o.opId().equals(opId)).findFirst()
                .orElseThrow(() -> CatalogErrors.UNKNOWN_OPERATION.error("connector " + c.connectorId()
                        + " has no operation '" + opId + "'; search with: svc operation search " + c.connectorId()
                        + " <query>"));
    }

    private static List<OperationView> views(LoadedConnector c, Map<String, ReviewStore.OpOverride> overrides) {
        return c.catalog().operations().stream().map(op -> OperationView.of(op, overrides.get(op.opId()))).toList();
    }

    private List<GroupView> groupViews(UUID tenant, LoadedConnector c, List<OperationView> ops) {
        Map<String, ReviewStore.GroupEdit> edits = store.groupEdits(tenant, c.connectorId());
        List<GroupView> out = new ArrayList<>();
        for (OperationGroup g : c.catalog().groups()) {
            int count = (int) ops.stream().filter(o -> o.groupKey().equals(g.groupKey())).count();
            int enabled = (int) ops.stream().filter(o -> o.groupKey().equals(g.groupKey()) && o.isEnabled()).count();
            ReviewStore.GroupEdit e = edits.get(g.groupKey());
            out.add(new GroupView(g.groupKey(), e == null ? g.displayName() : e.displayName().orElse(g.displayName()),
                    e == null ? g.whenToUse() : e.whenToUse().orElse(g.whenToUse()), count, enabled,
                    enabled > 0 && enabled < count));
        }
        return out;
    }

    private ConnectorSummary summary(LoadedConnector c, String status, Map<String, ReviewStore.OpOverride> o) {
        ConnectorDescriptor d = c.descriptor();
        int enabled = (int) c.catalog().operations().stream()
                .filter(op -> o.containsKey(op.opId()) && o.get(op.opId()).isEnabled().orElse(false)).count();
        return new ConnectorSummary(d.connectorId(), Optional.of(d.implId()), Optional.of(d.version()),
                d.products().stream().map(ConnectorDescriptor.Product::token).toList(), d.supportedVersions(), status,
                c.catalog().operations().size(), enabled, registry.isPlugin(d.connectorId()) ? "plugin" : "ingested",
                Optional.of(c.jar().getFileName().toString()), Optional.ofNullable(c.pluginVersion()),
                registry.problem(c));
    }
}
