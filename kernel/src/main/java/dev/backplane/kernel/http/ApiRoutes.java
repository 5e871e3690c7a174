package dev.backplane.kernel.http;

import dev.backplane.kernel.http.Authenticator;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Method;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where every route is declared, with the least role it needs (or none, for public routes). The
 * declaration wraps the handler once with authentication and the role check, and is recorded so a
 * test can hold the served OpenAPI document to the routes that really exist.
 */
public final class ApiRoutes {

    /**
     * A declared route; {@code role} is empty for public routes. {@code callers} says whether agents
     * (agent principals and people's agent sessions) may call it.
     */
    public record Route(String method, String path, Optional<Role> role, Callers callers) {
    }

    /**
     * Who may call a route besides holding its role. A write that needs tenant_admin changes governance
     * (catalog review and overrides, agent definitions, triggers, conventions, targets, sources, settings),
     * so it is {@link #NO_AGENTS} unless declared otherwise: an agent that could make it would escape its own
     * grants (review 3, S2). A new tenant_admin write is covered without anyone remembering to mark it.
     */
    public enum Callers {
        /** Anyone holding the route's role. */
        ANY,
        /** People and service principals; agents get {@code 403 human_required} before the handler runs. */
        NO_AGENTS;

        static Callers byDefault(Method method, Role role) {
            return method != Method.GET && role == Role.TENANT_ADMIN ? NO_AGENTS : ANY;
        }
    }

    /** The template of the route a request matched, in the request's context (a bounded metrics label). */
    public record Template(String path) {
    }

    /** A handler that runs for an authenticated caller who holds the route's role. */
    @FunctionalInterface
    public interface CallerHandler {
        void handle(ServerRequest req, ServerResponse res, Caller caller) throws Exception;
    }

    /**
     * Told of every state-changing request (POST, PUT, PATCH, DELETE) a route answered below 400, after
     * its handler ran, unless the route records its own audit rows or only reads.
     */
    @FunctionalInterface
    public interface MutationRecorder {
        /**
         * @param route {@code METHOD path-template}
         * @param pathParameters the path's parameters
         * @param body the request body as read, if the handler read one
         */
        void recorded(Caller caller, String route, java.util.Map<String, String> pathParameters,
                      Optional<com.fasterxml.jackson.databind.JsonNode> body, int status);
    }

    private final Authenticator authenticator;
    private volatile MutationRecorder recorder;
    private final java.util.Set<String> unrecorded = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final List<Route> routes = new ArrayList<>();
    private final List<Consumer<HttpRouting.Builder>> registrations = new ArrayList<>();

    public ApiRoutes(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    public ApiRoutes get(String path, Role role, CallerHandler handler) {
        return route(Method.GET, path, role, handler);
    }

    public ApiRoutes post(String path, Role role, CallerHandler handler) {
        return route(Method.POST, path, role, handler);
    }

    public ApiRoutes patch(String path, Role role, CallerHandler handler) {
        return route(Method.PATCH, path, role, handler);
    }

    public ApiRoutes put(String path, Role role, CallerHandler handler) {
        return route(Method.PUT, path, role, handler);
    }

    public ApiRoutes delete(String path, Role role, CallerHandler handler) {
        return route(Method.DELETE, path, role, handler);
    }

    /** The routes of the collection at {@code path} and of its members at {@code path/{param}}, keyed by {@code key}. */
    public <K> CollectionRoutes<K> collection(String path, String param, Function<ServerRequest, K> key, Role read,
                                              Role write) {
        return new CollectionRoutes<>(this, path, path + "/{" + param + "}", key, read, write);
    }

    /** The routes of a collection whose members are named by the text of the path parameter {@code param}. */
    public CollectionRoutes<String> collection(String path, String param, Role read, Role write) {
        return collection(path, param, req -> req.path().pathParameters().get(param), read, write);
    }

    /** A POST route with its callers declared (see {@link Callers}: tenant_admin writes are NO_AGENTS already). */
    public ApiRoutes post(String path, Role role, Callers callers, CallerHandler handler) {
        return route(Method.POST, path, role, callers, handler);
    }

    public ApiRoutes route(Method method, String path, Role role, CallerHandler handler) {
        return route(method, path, role, Callers.byDefault(method, role), handler);
    }

    public ApiRoutes route(Method method, String path, Role role, Callers callers, CallerHandler handler) {
        routes.add(new Route(method.text(), path, Optional.of(role), callers));
        Template template = new Template(path);
        String what = method.text() + " " + path;
        Handler guarded = (req, res) -> {
            req.context().register(Template.class, template);
            Caller caller = authenticator.authenticate(req);
            caller.require(role);
            if (callers == Callers.NO_AGENTS) {
                caller.refuseAgents(what);
            }
            req.context().register(Caller.class, caller);
            checkParameters(req);
            handler.handle(req, res, caller);
            record(method, path, req, res, caller);
        };
        registrations.add(b -> b.route(method, path, guarded));
        return this;
    }

    /**
     * Records state-changing requests through {@code recorder}, except the routes named in {@code exempt}
     * ({@code METHOD path-template}: routes that audit themselves, and POSTs that only read).
     */
    public ApiRoutes recordMutations(MutationRecorder recorder, java.util.Collection<String> exempt) {
        this.unrecorded.addAll(exempt);
        this.recorder = recorder;
        return this;
    }

    private void record(Method method, String path, ServerRequest req, ServerResponse res, Caller caller) {
        MutationRecorder r = recorder;
        String route = method.text() + " " + path;
        if (r == null || method == Method.GET || unrecorded.contains(route) || res.status().code() >= 400) {
            return;
        }
        java.util.Map<String, String> params = new java.util.LinkedHashMap<>();
        var pp = req.path().pathParameters();
        for (String name : pp.names()) {
            params.put(name, pp.get(name));
        }
        r.recorded(caller, route, params, req.context().get(Json.Body.class, Json.Body.class).map(Json.Body::tree),
                res.status().code());
    }

    /** Path and query parameters with text no route accepts are refused before any handler runs. */
    private static void checkParameters(io.helidon.webserver.http.ServerRequest req) {
        for (String name : req.query().names()) {
            for (String value : req.query().all(name)) {
                TextGuard.checkParameter(name, value);
            }
            TextGuard.checkParameter("(query parameter name)", name);
        }
        var path = req.path().pathParameters();
        for (String name : path.names()) {
            TextGuard.checkParameter(name, path.get(name));
        }
    }

    /** A route anyone may call without a token (health, discovery, the OpenAPI document). */
    public ApiRoutes publicRoute(Method method, String path, Handler handler) {
        routes.add(new Route(method.text(), path, Optional.empty(), Callers.ANY));
        Template template = new Template(path);
        registrations.add(b -> b.route(method, path, (req, res) -> {
            req.context().register(Template.class, template);
            handler.handle(req, res);
        }));
        return this;
    }

    public List<Route> routes() {
        return List.copyOf(routes);
    }

    public void applyTo(HttpRouting.Builder routing) {
        registrations.forEach(r -> r.accept(routing));
    }
}
