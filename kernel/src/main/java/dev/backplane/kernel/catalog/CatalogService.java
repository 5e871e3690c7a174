package dev.backplane.kernel.catalog;

import dev.backplane.kernel.catalog.CatalogViews.CatalogEntry;
import dev.backplane.kernel.catalog.CatalogViews.ConnectorSummary;
import dev.backplane.kernel.catalog.CatalogViews.GroupView;
import dev.backplane.kernel.catalog.CatalogViews.Review;
import dev.backplane.kernel.catalog.CatalogViews.ReviewChange;
import dev.backplane.kernel.catalog.CatalogViews.SearchResult;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.plugin.api.OperationDescriptor;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The connector catalog as a tenant sees it, and its review. Connectors come from plugins and are
 * the same for every tenant; review state, per-operation overrides and group edits belong to each
 * tenant (one tenant's admin cannot open operations for another). Everything is default-deny: no
 * review row means staged, no override means the operation is not enabled.
 */
public final class CatalogService {

    public static final Set<String> STATUSES = Arrays.stream(ReviewStatus.values()).map(ReviewStatus::wireName)
            .collect(Collectors.toUnmodifiableSet());
    /**
     * The status of a catalog-index entry this tenant has no connector for yet: listed so every family
     * the deploy offers shows in {@code svc connector list}, with the command that ingests it.
     */
    public static final String NOT_INGESTED = "not_ingested";
    public static final int SEARCH_LIMIT_MAX = 50;
    public static final int SEARCH_LIMIT_DEFAULT = 10;

    private final ConnectorRegistry registry;
    private final ReviewStore store;
    private final RetrievalEngine retrieval;
    private final ConnectorListing listing;
    private final CatalogReview review;
    private final CatalogSearch search;

    public CatalogService(ConnectorRegistry registry, Jdbc jdbc, ChangeFeed feed, RetrievalEngine retrieval) {
        this(registry, jdbc, feed, retrieval, OperationIndex.FIRST_WAIT_MILLIS);
    }

    /**
     * @param searchFirstWaitMillis how long the first searches of a connector whose operation embeddings are not in
     *     wait for them before ranking by words only ({@code catalog.search-first-wait-ms})
     */
    public CatalogService(ConnectorRegistry registry, Jdbc jdbc, ChangeFeed feed, RetrievalEngine retrieval,
                          long searchFirstWaitMillis) {
        this.registry = registry;
        this.store = new ReviewStore(jdbc, feed);
        this.retrieval = retrieval;
        this.listing = new ConnectorListing(registry, store);
        this.review = new CatalogReview(registry, store, listing);
        this.search = new CatalogSearch(registry, store, retrieval, searchFirstWaitMillis);
    }

    public ConnectorRegistry registry() {
        return registry;
    }

    public List<ConnectorSummary> list(UUID tenant, Optional<String> status) {
        return listing.list(tenant, status);
    }

    /**
     * Every loaded connector's operations with their params schemas — what the CLI builds its
     * per-family verbs from — and a revision that changes whenever any of it does.
     */
    public OperationCatalog operationCatalog(UUID tenant) {
        return OperationCatalogs.of(registry.all(tenant), id -> store.overrides(tenant, id));
    }

    /** The operation catalog: a content revision and the connectors with their operations. */
    public record OperationCatalog(String revision, List<Map<String, Object>> connectors) {
    }

    public Review review(UUID tenant, String connectorId) {
        return review.review(tenant, connectorId);
    }

    /** The review of one group's operations ({@code unknown_group} when the connector has no such group). */
    public Review review(UUID tenant, String connectorId, Optional<String> group) {
        return review.review(tenant, connectorId, group);
    }

    public List<GroupView> groups(UUID tenant, String connectorId) {
        return review.groups(tenant, connectorId);
    }

    public ReviewChange enable(UUID tenant, String connectorId, String actor) {
        return review.enable(tenant, connectorId, actor);
    }

    public ReviewChange disable(UUID tenant, String connectorId, String actor) {
        return review.disable(tenant, connectorId, actor);
    }

    public ReviewChange enableReads(UUID tenant, String connectorId, String actor) {
        return review.enableReads(tenant, connectorId, actor);
    }

    /** {@link #enableReads(UUID, String, String)}, with the POSTs the connector classes as reads when asked. */
    public ReviewChange enableReads(UUID tenant, String connectorId, boolean includeReadPosts, String actor) {
        return review.enableReads(tenant, connectorId, includeReadPosts, actor);
    }

    /**
     * A sparse change of one operation's overrides.
     *
     * @param customDescription new custom description ("" clears it)
     * @param opClass new class (read, write or credential_read); a credential_read always requires approval
     */
    public OperationView editOperation(UUID tenant, String connectorId, String opId, Optional<String> customDescription,
                                       Optional<String> safetyLevel, Optional<Boolean> requiresApproval,
                                       Optional<Boolean> isEnabled, Optional<String> opClass, String actor) {
        return review.editOperation(tenant, connectorId, opId, customDescription, safetyLevel, requiresApproval,
                isEnabled, opClass, actor);
    }

    /** {@link #editOperation(UUID, String, String, Optional, Optional, Optional, Optional, Optional, String)} leaving the class. */
    public OperationView editOperation(UUID tenant, String connectorId, String opId, Optional<String> customDescription,
                                       Optional<String> safetyLevel, Optional<Boolean> requiresApproval,
                                       Optional<Boolean> isEnabled, String actor) {
        return editOperation(tenant, connectorId, opId, customDescription, safetyLevel, requiresApproval, isEnabled,
                Optional.empty(), actor);
    }

    public GroupView editGroup(UUID tenant, String connectorId, String groupKey, Optional<String> displayName,
                               Optional<String> whenToUse, String actor) {
        return review.editGroup(tenant, connectorId, groupKey, displayName, whenToUse, actor);
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
        return search.vectorsReady(tenant, connectorId);
    }

    /**
     * Computes a connector's operation embeddings now and waits for them, reporting {@code (prepared, total)}: the
     * ingest job's last stage, so that the first search after an ingest is hybrid. Whether they are in.
     */
    public boolean prepareSearch(LoadedConnector connector, java.util.function.BiConsumer<Integer, Integer> progress) {
        return search.prepare(connector, progress);
    }

    /** Operation search on the hybrid engine; {@code mode} is for measuring one side alone. */
    public SearchResult search(UUID tenant, String connectorId, String query, Optional<String> group, int limit,
                               RetrievalEngine.Mode mode) {
        return search.search(tenant, connectorId, query, group, limit, mode);
    }

    /**
     * The operation as the tenant sees it, with whether it may be dispatched at all (connector enabled
     * and operation enabled).
     *
     * @throws DomainException {@code unknown_connector} or {@code unknown_operation}
     */
    public EffectiveOperation effective(UUID tenant, String connectorId, String opId) {
        LoadedConnector c = registry.require(tenant, connectorId);
        OperationDescriptor op = CatalogReview.operation(c, opId);
        OperationView view = OperationView.of(op, store.overrides(tenant, connectorId).get(opId));
        boolean enabled = store.status(tenant, connectorId).dispatchable();
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
        return CatalogReview.operation(registry.require(tenant, connectorId), opId);
    }

    /** The tenant's review status of a connector: staged (the default), enabled or disabled. */
    public String status(UUID tenant, String connectorId) {
        return store.status(tenant, connectorId).wireName();
    }

    /** Whether the tenant may dispatch this operation at all (connector enabled and operation enabled). */
    public boolean isDispatchable(UUID tenant, String connectorId, String opId) {
        if (!store.status(tenant, connectorId).dispatchable()) {
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
                || store.status(tenant, c.connectorId()).dispatchable()).toList();
    }

    public List<CatalogEntry> catalogList(UUID tenant) {
        return listing.catalogList(tenant);
    }
}
