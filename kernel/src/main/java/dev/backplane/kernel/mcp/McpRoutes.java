package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Authenticator;
import dev.backplane.kernel.http.ErrorMapping;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.TokenVerifier;
import dev.backplane.kernel.tools.ToolRegistry;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /mcp} over Streamable HTTP (POST only: the server never pushes outside a request, so GET and
 * DELETE answer 405; a request's own progress and log notifications come on its response, which then is
 * an SSE stream — {@link SseResponse}), OAuth protected-resource metadata (RFC 9728) under
 * {@code /.well-known/oauth-protected-resource[/mcp]}, and the checks in front of every message:
 * Origin, bearer token for the MCP audience, required scope, protocol version headers (for the stateless
 * revision, its {@code _meta} and header rules in {@link StatelessRequests}; its errors carry the HTTP statuses that
 * revision's Streamable HTTP names: 400, and 404 for a method it does not answer). A handshake's
 * {@code initialize} answer carries an {@code Mcp-Session-Id}, which keys the session's log level and, with the
 * caller, its audit session ({@link McpSessions}).
 */
public final class McpRoutes {

    private static final System.Logger LOG = System.getLogger(McpRoutes.class.getName());
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String METADATA_PATH = "/.well-known/oauth-protected-resource";
    private static final io.helidon.http.HeaderName SESSION_ID = HeaderNames.create("Mcp-Session-Id");

    /**
     * What the routes need to know about the deployment.
     *
     * @param publicUrl the configured public URL, else this listener's own address: absolute URLs are built from
     *        it, never from the request's {@code Host} header (which a client, a confused proxy or a DNS-rebinding
     *        page chooses)
     */
    public record Settings(String resourceUri, String issuer, Optional<String> requiredScope,
                           List<String> allowedOrigins, java.util.function.Supplier<String> publicUrl) {
    }

    private final Authenticator authenticator;
    private final TokenVerifier verifier;
    private final McpServer server;
    private final Settings settings;

    public McpRoutes(Authenticator authenticator, TokenVerifier verifier, Services services, String version,
                     Settings settings) {
        this.authenticator = authenticator;
        this.verifier = verifier;
        this.server = new McpServer(services.tools(), version, services.kb(), services.memory(), services.conventions(),
                services.runbooks(), services.features());
        this.settings = settings;
    }

    /**
     * The services the tools call — the same ones the REST routes call — and the feature-maturity index the
     * {@code svc://features} resource and the instructions tell (the one {@code GET /api/v1/features} serves).
     */
    public record Services(ToolRegistry tools,
                           dev.backplane.kernel.kb.KbService kb,
                           dev.backplane.kernel.memory.MemoryService memory,
                           java.util.function.Function<java.util.UUID, String> conventions,
                           dev.backplane.kernel.runbooks.RunbookTemplates runbooks,
                           Map<String, Object> features) {
    }

    public void register(ApiRoutes api) {
        api.publicRoute(Method.POST, "/mcp", this::post)
                .publicRoute(Method.GET, "/mcp", McpRoutes::notAllowed)
                .publicRoute(Method.DELETE, "/mcp", McpRoutes::notAllowed)
                .publicRoute(Method.GET, METADATA_PATH, this::metadata)
                .publicRoute(Method.GET, METADATA_PATH + "/mcp", this::metadata);
    }

    private static void notAllowed(ServerRequest req, ServerResponse res) {
        res.header(HeaderNames.ALLOW, "POST");
        res.status(Status.METHOD_NOT_ALLOWED_405).send();
    }

    private void metadata(ServerRequest req, ServerResponse res) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resource", settings.resourceUri());
        m.put("authorization_servers", List.of(settings.issuer()));
        m.put("scopes_supported", settings.requiredScope().map(List::of).orElse(List.of()));
        m.put("bearer_methods_supported", List.of("header"));
        m.put("resource_name", "svc governance backplane (MCP)");
        res.header(HeaderNames.CACHE_CONTROL, "max-age=300");
        Json.ok(res, m);
    }

    private String metadataUrl() {
        return settings.publicUrl().get().replaceAll("/+$", "") + METADATA_PATH + "/mcp";
    }

    private void post(ServerRequest req, ServerResponse res) {
        Optional<String> origin = req.headers().first(HeaderNames.ORIGIN);
        if (origin.isPresent() && !originAllowed(origin.get())) {
            rpcError(res, Status.FORBIDDEN_403, null, McpServer.INVALID_REQUEST, "origin " + origin.get()
                    + " is not allowed (mcp.allowed-origins)", Map.of());
            return;
        }
        Caller caller;
        try {
            caller = authenticator.authenticate(req);
            requireScope(req);
        } catch (DomainException e) {
            if (e.kind() == ErrorKind.UNAUTHENTICATED) {
                res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer resource_metadata=\"" + metadataUrl() + "\""
                        + (e.code().equals("invalid_token") ? ", error=\"invalid_token\"" : ""));
                Json.send(res, Status.UNAUTHORIZED_401, Map.of("error", e.code(), "message", e.getMessage()));
                return;
            }
            if (e.code().equals("insufficient_scope")) {
                res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer error=\"insufficient_scope\", scope=\""
                        + settings.requiredScope().orElse("") + "\", resource_metadata=\"" + metadataUrl() + "\"");
            }
            Json.send(res, ErrorMapping.status(e.kind()), ErrorMapping.envelope(e));
            return;
        }
        byte[] body;
        try {
            body = Json.body(req, Json.MAX_BODY_BYTES, () -> CommonErrors.BODY_TOO_LARGE.error("message exceeds "
                    + Json.MAX_BODY_BYTES + " bytes"));
        } catch (DomainException e) {
            if (e.kind() == ErrorKind.TOO_LARGE) {
                rpcError(res, Status.REQUEST_ENTITY_TOO_LARGE_413, null, McpServer.INVALID_REQUEST, e.getMessage(),
                        Map.of());
            } else {
                rpcError(res, Status.BAD_REQUEST_400, null, McpServer.PARSE_ERROR, "could not read the body", Map.of());
            }
            return;
        }
        JsonNode msg;
        try {
            msg = JsonMapping.mapper().readTree(body);
        } catch (IOException e) {
            rpcError(res, Status.BAD_REQUEST_400, null, McpServer.PARSE_ERROR, "not JSON", Map.of());
            return;
        }
        if (msg == null || msg.isArray()) {
            rpcError(res, Status.BAD_REQUEST_400, null, McpServer.INVALID_REQUEST, msg == null ? "empty message"
                    : "JSON-RPC batches are not supported; send one message per request", Map.of());
            return;
        }
        if (!msg.isObject() || !"2.0".equals(msg.path("jsonrpc").asText(null))) {
            rpcError(res, Status.BAD_REQUEST_400, null, McpServer.INVALID_REQUEST, "not a JSON-RPC 2.0 message",
                    Map.of());
            return;
        }
        JsonNode id = msg.get("id");
        try {
            dev.backplane.kernel.http.TextGuard.check(msg);
        } catch (dev.backplane.kernel.errors.DomainException refused) {
            rpcError(res, Status.OK_200, id, McpServer.INVALID_PARAMS, refused.getMessage(),
                    Map.of("reason", refused.code()));
            return;
        }
        if (!msg.has("method")) {
            if (msg.has("result") || msg.has("error")) {
                res.status(Status.ACCEPTED_202).send(); // a response to nothing we asked: acknowledged, ignored
            } else {
                rpcError(res, Status.BAD_REQUEST_400, id, McpServer.INVALID_REQUEST, "a request needs a method", Map.of());
            }
            return;
        }
        if (!msg.path("method").isTextual() || (id != null && !id.isTextual() && !id.isIntegralNumber())
                || (msg.has("params") && !msg.path("params").isObject())) {
            rpcError(res, Status.BAD_REQUEST_400, id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null,
                    McpServer.INVALID_REQUEST, "method must be a string, id a string or integer, params an object",
                    Map.of());
            return;
        }
        Optional<String> versionHeader = req.headers().first(HeaderNames.create(StatelessRequests.HEADER_VERSION));
        boolean stateless = StatelessRequests.speaks(versionHeader, msg);
        if (stateless) {
            Optional<StatelessRequests.Refusal> refusal = id == null
                    ? Optional.of(StatelessRequests.notification(msg.path("method").asText()))
                    : StatelessRequests.check(msg, name -> req.headers().first(HeaderNames.create(name)));
            if (refusal.isPresent()) {
                StatelessRequests.Refusal r = refusal.get();
                // a notification's error has no id (2026-07-28 basic/transports/streamable-http, "Sending Messages")
                Json.send(res, r.status(), errorMessage(id == null ? MissingNode.getInstance() : id, r.code(),
                        r.message(), r.data()));
                return;
            }
        } else if (versionHeader.isPresent() && !McpServer.HANDSHAKE_VERSIONS.contains(versionHeader.get())) {
            // 2025-06-18 and 2025-11-25 (basic/transports, "Protocol Version Header"): an invalid or unsupported
            // MCP-Protocol-Version is 400. The header names the version initialize settled on, and initialize only
            // settles on these two (a client asking for 2025-03-26 or older is answered 2025-11-25); only a request
            // without the header is taken as 2025-03-26, as that section allows.
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("supported", McpServer.ALL_VERSIONS);
            data.put("requested", versionHeader.get());
            rpcError(res, Status.BAD_REQUEST_400, id, McpServer.UNSUPPORTED_PROTOCOL_VERSION, "unsupported "
                    + "MCP-Protocol-Version " + versionHeader.get() + ": initialize settles on "
                    + String.join(" or ", McpServer.HANDSHAKE_VERSIONS) + "; " + McpServer.V2026_07_28
                    + " is spoken with the protocol version in each request's _meta", data);
            return;
        }
        if (id == null) {
            res.status(Status.ACCEPTED_202).send(); // notifications (initialized, cancelled, ...) need no answer
            return;
        }
        SseResponse answer = new SseResponse(req, res);
        // the stateless revision has no sessions: a session id sent with it is ignored
        Optional<String> session = stateless ? Optional.empty() : req.headers().first(SESSION_ID);
        try {
            // the audit session its calls are recorded in: derived from what the client sends, bound to the caller
            Caller inSession = McpSessions.of(caller, msg.path("params").path("_meta"), session, sid(req))
                    .map(caller::inSession).orElse(caller);
            JsonNode result = server.handle(new McpServer.Exchange(inSession, msg, stateless, session, answer));
            if (!stateless && msg.path("method").asText().equals("initialize")) {
                res.header(SESSION_ID, McpLogLevels.newSessionId());
            }
            ObjectNode out = NODES.objectNode();
            out.put("jsonrpc", "2.0");
            out.set("id", id);
            out.set("result", result);
            answer.respond(Status.OK_200, out);
        } catch (McpServer.RpcError e) {
            // 2026-07-28 basic/transports/streamable-http, "Protocol Version Header": a method the server does not
            // implement is 404 with -32601 (thrown before anything is streamed, so the status still applies)
            Status status = stateless && e.code == McpServer.METHOD_NOT_FOUND ? Status.NOT_FOUND_404 : Status.OK_200;
            answer.respond(status, errorMessage(id, e.code, e.getMessage(), e.data));
        } catch (DomainException e) {
            Map<String, Object> data = new LinkedHashMap<>(e.extras());
            data.put("reason", e.code());
            answer.respond(Status.OK_200, errorMessage(id, McpServer.INVALID_PARAMS, e.getMessage(), data));
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "mcp " + msg.path("method").asText() + " failed", e);
            answer.respond(Status.OK_200, errorMessage(id, -32603, "internal error; the backplane logged it", Map.of()));
        }
    }

    /** The verified claims of the request's bearer token (cached: the authenticator verified it a moment ago). */
    private JWTClaimsSet claims(ServerRequest req) {
        return verifier.verify(req.headers().first(HeaderNames.AUTHORIZATION).orElse("").substring(7).trim());
    }

    /** The token's {@code sid} claim (the identity provider's login session), when it is a string. */
    private Optional<String> sid(ServerRequest req) {
        return Optional.ofNullable(claims(req).getClaim("sid")).filter(String.class::isInstance).map(String.class::cast);
    }

    private void requireScope(ServerRequest req) {
        if (settings.requiredScope().isEmpty()) {
            return;
        }
        JWTClaimsSet claims = claims(req);
        Object scope = claims.getClaim("scope");
        List<String> granted = scope == null ? List.of() : Arrays.asList(scope.toString().split(" "));
        if (!granted.contains(settings.requiredScope().get())) {
            throw McpErrors.INSUFFICIENT_SCOPE.error("the token lacks the scope "
                    + settings.requiredScope().get() + " this MCP resource requires");
        }
    }

    private boolean originAllowed(String origin) {
        if (settings.allowedOrigins().contains("*") || settings.allowedOrigins().contains(origin)) {
            return true;
        }
        try {
            String host = URI.create(origin).getHost();
            return host != null && (host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]")
                    || host.equals("::1"));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static void rpcError(ServerResponse res, Status status, JsonNode id, int code, String message,
                                 Map<String, Object> data) {
        Json.send(res, status, errorMessage(id, code, message, data));
    }

    /** A JSON-RPC error; {@code id} null is a JSON null id, a missing node leaves the id out. */
    private static ObjectNode errorMessage(JsonNode id, int code, String message, Map<String, Object> data) {
        id = id == null ? NODES.nullNode() : id;
        ObjectNode out = NODES.objectNode();
        out.put("jsonrpc", "2.0");
        if (!id.isMissingNode()) {
            out.set("id", id); // absent only where the 2026-07-28 revision answers a notification
        }
        ObjectNode error = out.putObject("error");
        error.put("code", code);
        error.put("message", message);
        if (!data.isEmpty()) {
            error.set("data", JsonMapping.mapper().valueToTree(data));
        }
        return out;
    }
}
