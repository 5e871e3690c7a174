package dev.backplane.kernel.catalog;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.retrieval.SearchLog;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;

/** REST surface of the connector catalog, its review and the tenant's implementation preferences. */
public record CatalogRoutes(CatalogService catalog, ConnectorPreferences preferences) {

    static final String CONNECTORS = "/api/v1/connectors";
    static final String CONNECTOR = CONNECTORS + "/{connector_id}";
    static final String PREFERENCES = "/api/v1/connector-preferences";

    /** Body of a preference: the implementation preferred for the path's product. */
    record PreferenceBody(String implId) {
    }

    /** Body of an operation edit; absent fields stay as they are, "" clears the custom description. */
    record OperationEdit(Optional<String> customDescription, Optional<String> safetyLevel,
                         Optional<Boolean> requiresApproval, Optional<Boolean> isEnabled, Optional<String> opClass) {
        OperationEdit {
            opClass = opClass == null ? Optional.empty() : opClass;
            customDescription = customDescription == null ? Optional.empty() : customDescription;
            safetyLevel = safetyLevel == null ? Optional.empty() : safetyLevel;
            requiresApproval = requiresApproval == null ? Optional.empty() : requiresApproval;
            isEnabled = isEnabled == null ? Optional.empty() : isEnabled;
        }
    }

    /** Body of a group edit. */
    record GroupEdit(Optional<String> name, Optional<String> whenToUse) {
        GroupEdit {
            name = name == null ? Optional.empty() : name;
            whenToUse = whenToUse == null ? Optional.empty() : whenToUse;
        }
    }

    public void register(ApiRoutes api) {
        api.get(CONNECTORS, Role.READ_ONLY, this::list)
                .get(CONNECTOR, Role.READ_ONLY, this::review)
                .post(CONNECTOR + "/enable", Role.TENANT_ADMIN, this::enable)
                .post(CONNECTOR + "/disable", Role.TENANT_ADMIN, this::disable)
                .post(CONNECTOR + "/enable-reads", Role.TENANT_ADMIN, this::enableReads)
                .get(CONNECTOR + "/groups", Role.READ_ONLY, this::groups)
                .patch(CONNECTOR + "/groups/{group_key}", Role.TENANT_ADMIN, this::editGroup)
                .get(CONNECTOR + "/operations", Role.READ_ONLY, this::search)
                .patch(CONNECTOR + "/operations/{op_id}", Role.TENANT_ADMIN, this::editOperation)
                .get("/api/v1/catalog", Role.READ_ONLY, (req, res, caller) -> Json.ok(res, catalog.catalogList(caller.tenantId())))
                .get("/api/v1/catalog/operations", Role.READ_ONLY, (req, res, caller) -> Json.ok(res,
                        catalog.operationCatalog(caller.tenantId())))
                .get(PREFERENCES, Role.READ_ONLY, (req, res, caller) -> Json.ok(res,
                        Map.of("preferences", preferences.list(caller.tenantId()))))
                .put(PREFERENCES + "/{product}", Role.TENANT_ADMIN, this::prefer)
                .delete(PREFERENCES + "/{product}", Role.TENANT_ADMIN, (req, res, caller) -> {
                    String product = req.path().pathParameters().get("product");
                    preferences.clear(caller.tenantId(), product);
                    Json.ok(res, Map.of("cleared", product));
                });
    }

    private void prefer(ServerRequest req, ServerResponse res, Caller caller) {
        PreferenceBody body = Json.read(req, PreferenceBody.class);
        if (body.implId() == null || body.implId().isBlank()) {
            throw CommonErrors.INVALID_REQUEST.error("impl_id is required", Map.of("field", "impl_id"));
        }
        Json.ok(res, preferences.set(caller.tenantId(), req.path().pathParameters().get("product"), body.implId(),
                caller.sub()));
    }

    private static String id(ServerRequest req) {
        return req.path().pathParameters().get("connector_id");
    }

    private void list(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, catalog.list(caller.tenantId(), req.query().first("status").asOptional()));
    }

    private void review(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, catalog.review(caller.tenantId(), id(req), req.query().first("group").asOptional()));
    }

    private void enable(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, catalog.enable(caller.tenantId(), id(req), caller.sub()));
    }

    private void disable(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, catalog.disable(caller.tenantId(), id(req), caller.sub()));
    }

    private void enableReads(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, catalog.enableReads(caller.tenantId(), id(req), QueryParams.flag(req, "include_read_posts"),
                caller.sub()));
    }

    private void groups(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, catalog.groups(caller.tenantId(), id(req)));
    }

    private void editGroup(ServerRequest req, ServerResponse res, Caller caller) {
        GroupEdit edit = Json.read(req, GroupEdit.class);
        Json.ok(res, catalog.editGroup(caller.tenantId(), id(req), req.path().pathParameters().get("group_key"),
                edit.name(), edit.whenToUse(), caller.sub()));
    }

    private void search(ServerRequest req, ServerResponse res, Caller caller) {
        String query = req.query().first("query").asOptional().orElseThrow(() -> CommonErrors.INVALID_QUERY.error("the query parameter 'query' is required", Map.of("field", "query")));
        int limit = QueryParams.limit(req, CatalogService.SEARCH_LIMIT_DEFAULT, 50);
        Json.ok(res, catalog.search(caller, SearchLog.Transport.REST, id(req), query,
                req.query().first("group").asOptional(), limit));
    }

    private void editOperation(ServerRequest req, ServerResponse res, Caller caller) {
        OperationEdit e = Json.read(req, OperationEdit.class);
        Json.ok(res, catalog.editOperation(caller.tenantId(), id(req), req.path().pathParameters().get("op_id"),
                e.customDescription(), e.safetyLevel(), e.requiresApproval(), e.isEnabled(), e.opClass(), caller.sub()));
    }
}
