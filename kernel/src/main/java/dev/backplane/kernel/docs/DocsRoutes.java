package dev.backplane.kernel.docs;

import com.fasterxml.jackson.annotation.JsonFormat;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** {@code /api/v1/docs}: doc collections (CRUD, state, probe, capability grants), search and ask. */
public record DocsRoutes(DocsService docs) {

    static final String COLLECTIONS = "/api/v1/docs/collections";

    /** Body of a create. */
    record CreateBody(String key, Optional<String> backendType, Map<String, Object> backendRef,
                      Optional<String> description, List<String> product, Optional<String> vendor,
                      Optional<String> whenToUse, Optional<Boolean> enabled, Optional<Boolean> global) {
        CreateBody {
            backendType = backendType == null ? Optional.empty() : backendType;
            description = description == null ? Optional.empty() : description;
            vendor = vendor == null ? Optional.empty() : vendor;
            whenToUse = whenToUse == null ? Optional.empty() : whenToUse;
            enabled = enabled == null ? Optional.empty() : enabled;
            global = global == null ? Optional.empty() : global;
        }

        DocCollections.Fields fields() {
            return new DocCollections.Fields(backendType, Optional.ofNullable(backendRef), description,
                    Optional.ofNullable(product), vendor, whenToUse, enabled);
        }
    }

    /** Body of an update: only the fields given change; backend_ref {} clears the backend. */
    record UpdateBody(Optional<String> backendType, Map<String, Object> backendRef, Optional<String> description,
                      List<String> product, Optional<String> vendor, Optional<String> whenToUse) {
        UpdateBody {
            backendType = backendType == null ? Optional.empty() : backendType;
            description = description == null ? Optional.empty() : description;
            vendor = vendor == null ? Optional.empty() : vendor;
            whenToUse = whenToUse == null ? Optional.empty() : whenToUse;
        }

        DocCollections.Fields fields() {
            return new DocCollections.Fields(backendType, Optional.ofNullable(backendRef), description,
                    Optional.ofNullable(product), vendor, whenToUse, Optional.empty());
        }
    }

    /** Body of a search or ask; {@code collection} is one key, a list of keys, or 'all'. */
    record QueryBody(String query, @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> collection,
                     Optional<Integer> limit, Optional<String> product, Optional<String> version) {
        QueryBody {
            limit = limit == null ? Optional.empty() : limit;
            product = product == null ? Optional.empty() : product;
            version = version == null ? Optional.empty() : version;
        }

        DocsService.Query toQuery() {
            return new DocsService.Query(query, collection, limit, product, version);
        }
    }

    public void register(ApiRoutes api) {
        DocCollections collections = docs.collections();
        api.get(COLLECTIONS, Role.READ_ONLY, (req, res, c) -> Json.ok(res, collections.list(c,
                req.query().first("cursor").asOptional(), QueryParams.integer(req, "limit", 100),
                req.query().first("vendor").asOptional())));
        String collection = api.collection(COLLECTIONS, "key", Role.READ_ONLY, Role.TENANT_ADMIN)
                .create(CreateBody.class, (c, body) -> view(c, collections.create(c, body.key(),
                        body.global().orElse(false), body.fields())))
                .update(UpdateBody.class, (c, key, body) -> view(c, collections.update(c, key, body.fields())))
                .delete(collections::delete)
                .action("enable", (c, key) -> view(c, collections.setEnabled(c, key, true)))
                .action("disable", (c, key) -> view(c, collections.setEnabled(c, key, false)))
                .member();
        api.post(collection + "/probe", Role.OPERATOR, (req, res, c) -> Json.ok(res, docs.probe(c, key(req))))
                .get(collection + "/grants", Role.TENANT_ADMIN, (req, res, c) -> {
                    c.requirePlatformAdmin();
                    Json.ok(res, Map.of("grants", docs.capabilities().grants(collections.visible(c.tenantId(), key(req)))));
                })
                .post(collection + "/grants/{tenant_id}", Role.TENANT_ADMIN, (req, res, c) -> {
                    c.requirePlatformAdmin();
                    Json.ok(res, docs.capabilities().grant(collections.visible(c.tenantId(), key(req)), tenant(req),
                            c.sub()));
                })
                .delete(collection + "/grants/{tenant_id}", Role.TENANT_ADMIN, (req, res, c) -> {
                    c.requirePlatformAdmin();
                    docs.capabilities().revoke(collections.visible(c.tenantId(), key(req)), tenant(req));
                    Json.ok(res, Map.of("revoked", DocCollection.capability(key(req)), "tenant_id", tenant(req)));
                })
                .post("/api/v1/docs/search", Role.READ_ONLY, (req, res, c) ->
                        Json.ok(res, docs.search(c, Json.read(req, QueryBody.class).toQuery(), "rest")))
                .post("/api/v1/docs/ask", Role.READ_ONLY, (req, res, c) ->
                        Json.ok(res, docs.ask(c, Json.read(req, QueryBody.class).toQuery(), "rest")));
    }

    private DocCollection.View view(Caller c, DocCollection d) {
        return d.view(d.enabled() && docs.capabilities().holds(c.tenantId(), d));
    }

    private static String key(ServerRequest req) {
        return req.path().pathParameters().get("key");
    }

    private static UUID tenant(ServerRequest req) {
        return QueryParams.uuidPath(req, "tenant_id", v -> CommonErrors.INVALID_TENANT.error("tenant must be a uuid, got '" + v + "'", Map.of("field", "tenant_id")));
    }
}
