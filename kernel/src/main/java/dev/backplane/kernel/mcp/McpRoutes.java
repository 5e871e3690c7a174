package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Authenticator;
import dev.backplane.kernel.http.ErrorMapping;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.TokenVerifier;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.memory.MemoryService;
import dev.backplane.kernel.runbooks.RunbookTemplates;
import dev.backplane.kernel.tools.ToolRegistry;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code /mcp} over Streamable HTTP (POST only: the server never pushes outside a request, so GET and
 * DELETE answer 405; a request's own progress and log notifications come on its response, which then is
 * an SSE stream — {@link SseResponse}), OAuth protected-resource metadata (RFC 9728) under
 * {@code /.well-known/oauth-protected-resource[/mcp]}, and the checks in front of every message:
 * Origin, bearer token for the MCP audience, required scope, protocol version headers ({@link McpRequestChecks};
 * for the stateless revision, its {@code _meta} and header rules in {@link StatelessRequests}; its errors carry the
 * HTTP statuses that revision's Streamable HTTP names: 400, and 404 for a method it does not answer). A handshake's
 * {@code initialize} answer carries an {@code Mcp-Session-Id}, which keys the session's log level and, with the
 * caller, its audit session ({@link McpSessions}).
 */
public final class McpRoutes {

    private static final System.Logger LOG = System.getLogger(McpRoutes.class.getName());
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String METADATA_PATH = McpRequestChecks.METADATA_PATH;
    private static final HeaderName SESSION_ID = HeaderNames.create("Mcp-Session-Id");

    /**
     * What the routes need to know about the deployment.
     *
     * @param publicUrl the configured public URL, else this listener's own address: absolute URLs are built from
     *        it, never from the request's {@code Host} header (which a client, a confused proxy or a DNS-rebinding
     *        page chooses)
     */
    public record Settings(String resourceUri, String issuer, Optional<String> requiredScope,
                           List<String> allowedOrigins, Supplier<String> publicUrl) {
    }

    private final McpRequestChecks checks;
    private final McpServer server;
    private final Settings settings;

    public McpRoutes(Authenticator authenticator, TokenVerifier verifier, Services services, String version,
                     Settings settings) {
        this.checks = new McpRequestChecks(authenticator, verifier, settings);
        this.server = new McpServer(services.tools(), version, services.kb(), services.memory(), services.conventions(),
                services.runbooks(), services.features());
        this.settings = settings;
    }

    /**
     * The services the tools call — the same ones the REST routes call — and the feature-maturity index the
     * {@code svc://features} resource and the instructions tell (the one {@code GET /api/v1/features} serves).
     */
    public record Services(ToolRegistry tools, KbService kb, MemoryService memory, Function<UUID, String> conventions,
                           RunbookTemplates runbooks, Map<String, Object> features) {
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
        res.header(HeaderNames.CACHE_CONTROL, "max-age=300");
        Json.ok(res, McpRequestChecks.metadata(settings));
    }

    private void post(ServerRequest req, ServerResponse res) {
        Optional<String> origin = req.headers().first(HeaderNames.ORIGIN);
        if (origin.isPresent() && !McpRequestChecks.originAllowed(settings, origin.get())) {
            JsonRpcMessages.error(res, Status.FORBIDDEN_403, null, McpServer.INVALID_REQUEST, "origin " + origin.get()
                    + " is not allowed (mcp.allowed-origins)", Map.of());
            return;
        }
        Optional<Caller> caller = authenticated(req, res);
        Optional<JsonNode> message = caller.isPresent() ? JsonRpcMessages.read(req, res) : Optional.empty();
        if (message.isEmpty()) {
            return; // answered already
        }
        JsonNode msg = message.get();
        JsonNode id = msg.get("id");
        Optional<String> versionHeader = req.headers().first(HeaderNames.create(StatelessRequests.HEADER_VERSION));
        boolean stateless = StatelessRequests.speaks(versionHeader, msg);
        Optional<StatelessRequests.Refusal> refusal = !stateless ? McpRequestChecks.handshakeVersion(versionHeader)
                : id == null ? Optional.of(StatelessRequests.notification(msg.path("method").asText()))
                : StatelessRequests.check(msg, name -> req.headers().first(HeaderNames.create(name)));
        if (refusal.isPresent()) {
            StatelessRequests.Refusal r = refusal.get();
            // a stateless notification's error has no id (2026-07-28 basic/transports/streamable-http, "Sending
            // Messages"); a handshake notification's has a null one
            Json.send(res, r.status(), McpServer.errorMessage(stateless && id == null ? MissingNode.getInstance() : id,
                    r.code(), r.message(), r.data()));
            return;
        }
        if (id == null) {
            res.status(Status.ACCEPTED_202).send(); // notifications (initialized, cancelled, ...) need no answer
            return;
        }
        answer(req, res, caller.get(), msg, stateless);
    }

    /** The caller of the request's token; else its refusal (with the challenge) is sent and there is none. */
    private Optional<Caller> authenticated(ServerRequest req, ServerResponse res) {
        try {
            return Optional.of(checks.authenticate(req));
        } catch (DomainException e) {
            McpRequestChecks.challenge(settings, e).ifPresent(c -> res.header(HeaderNames.WWW_AUTHENTICATE, c));
            if (e.kind() == ErrorKind.UNAUTHENTICATED) {
                Json.send(res, Status.UNAUTHORIZED_401, Map.of("error", e.code(), "message", e.getMessage()));
            } else {
                Json.send(res, ErrorMapping.status(e.kind()), ErrorMapping.envelope(e));
            }
            return Optional.empty();
        }
    }

    /** Runs a request and answers it on its response: the result, or the JSON-RPC error its failure maps to. */
    private void answer(ServerRequest req, ServerResponse res, Caller caller, JsonNode msg, boolean stateless) {
        JsonNode id = msg.get("id");
        SseResponse answer = new SseResponse(req, res);
        // the stateless revision has no sessions: a session id sent with it is ignored
        Optional<String> session = stateless ? Optional.empty() : req.headers().first(SESSION_ID);
        try {
            // the audit session its calls are recorded in: derived from what the client sends, bound to the caller
            Caller inSession = McpSessions.of(caller, msg.path("params").path("_meta"), session, checks.sid(req))
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
            answer.respond(status, McpServer.errorMessage(id, e.code, e.getMessage(), e.data));
        } catch (DomainException e) {
            Map<String, Object> data = new LinkedHashMap<>(e.extras());
            data.put("reason", e.code());
            answer.respond(Status.OK_200, McpServer.errorMessage(id, McpServer.INVALID_PARAMS, e.getMessage(), data));
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "mcp " + msg.path("method").asText() + " failed", e);
            answer.respond(Status.OK_200, McpServer.errorMessage(id, -32603, "internal error; the backplane logged it",
                    Map.of()));
        }
    }
}
