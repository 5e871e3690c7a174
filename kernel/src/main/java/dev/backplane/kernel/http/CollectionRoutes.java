package dev.backplane.kernel.http;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The routes of one collection resource, declared on {@link ApiRoutes}: the collection at {@code path}
 * (list, create) and its members at {@code path/{param}} (show, update, delete, actions). Reads need the
 * collection's read role, writes its write role. The answers are the same for every collection: a create
 * is {@code 201} with what the service returned, a delete {@code 200 {"deleted": key}}, everything else
 * {@code 200} with what the service returned. A capability's route class states its paths, roles and
 * service calls; what does not fit the shape it declares on {@link ApiRoutes} directly, under {@link #member()}.
 *
 * @param <K> the member key a path parameter names (a slug, a name, a uuid)
 * @param api where the routes are declared
 * @param path the collection's path template
 * @param member the path template of one member, for the routes a capability declares beside the collection's
 * @param key reads the member key from a request
 * @param read the role of list and show
 * @param write the role of create, update, delete and actions
 */
public record CollectionRoutes<K>(ApiRoutes api, String path, String member, Function<ServerRequest, K> key, Role read,
                                  Role write) {

    /** A paged list's {@code limit} (the collection's default when absent) and {@code offset} (0 when absent). */
    public record Page(int limit, int offset) {

        /** Reads {@code limit}, then {@code offset}; a malformed one is {@code 422 invalid_<name>}. */
        public static Page of(ServerRequest req, int defaultLimit) {
            return new Page(QueryParams.integer(req, "limit", defaultLimit), QueryParams.integer(req, "offset", 0));
        }
    }

    /** Lists one page of the collection for the caller; {@code req} carries the list's own filters. */
    @FunctionalInterface
    public interface Lister {
        Object list(ServerRequest req, Caller caller, Page page);
    }

    /** Changes one member with a request body. */
    @FunctionalInterface
    public interface Update<K, B> {
        Object update(Caller caller, K key, B body);
    }

    /** Sets one member's status ({@code paused} or {@code active}). */
    @FunctionalInterface
    public interface StatusChange<K> {
        Object set(Caller caller, K key, String status);
    }

    /** {@code GET path}: {@code {field: [...]}}, one page of it. */
    public CollectionRoutes<K> list(String field, int defaultLimit, Lister lister) {
        api.get(path, read, (req, res, c) -> Json.ok(res, Map.of(field, lister.list(req, c, Page.of(req, defaultLimit)))));
        return this;
    }

    /** {@code POST path}: {@code 201} with the created member. */
    public <B> CollectionRoutes<K> create(Class<B> body, BiFunction<Caller, B, ?> create) {
        api.post(path, write, (req, res, c) -> Json.send(res, Status.CREATED_201, create.apply(c, Json.read(req, body))));
        return this;
    }

    /** {@code GET path/{param}}. */
    public CollectionRoutes<K> show(BiFunction<Caller, K, ?> show) {
        api.get(member, read, (req, res, c) -> Json.ok(res, show.apply(c, key.apply(req))));
        return this;
    }

    /** {@code PATCH path/{param}}: the key is read before the body. */
    public <B> CollectionRoutes<K> update(Class<B> body, Update<K, B> update) {
        api.patch(member, write, (req, res, c) -> {
            K k = key.apply(req);
            Json.ok(res, update.update(c, k, Json.read(req, body)));
        });
        return this;
    }

    /** {@code DELETE path/{param}}: {@code {"deleted": key}}. */
    public CollectionRoutes<K> delete(BiConsumer<Caller, K> delete) {
        api.delete(member, write, (req, res, c) -> {
            K k = key.apply(req);
            delete.accept(c, k);
            Json.ok(res, Map.of("deleted", k.toString()));
        });
        return this;
    }

    /** {@code POST path/{param}/name} with the write role. */
    public CollectionRoutes<K> action(String name, BiFunction<Caller, K, ?> action) {
        api.post(member + "/" + name, write, (req, res, c) -> Json.ok(res, action.apply(c, key.apply(req))));
        return this;
    }

    /** {@code POST path/{param}/pause} and {@code .../resume}: the member's status to {@code paused} or {@code active}. */
    public CollectionRoutes<K> pauseAndResume(StatusChange<K> change) {
        action("pause", (c, k) -> change.set(c, k, "paused"));
        return action("resume", (c, k) -> change.set(c, k, "active"));
    }
}
