package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Optional;

/**
 * The client's side of notifications: {@code logging/setLevel} for the handshake revisions (the level
 * kept per session by {@link McpLogLevels}) and, for every request, the {@code _meta} that asks for them —
 * {@code progressToken} (a string or an integer) and, in the stateless 2026-07-28 revision, the per-request
 * {@code io.modelcontextprotocol/logLevel}. A malformed one is {@code -32602}, whatever the method.
 */
final class McpNotifications {

    static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final McpLogLevels levels = new McpLogLevels();

    /** The notifier of one request, from its {@code _meta} and its session's level. */
    McpNotifier notifier(McpServer.Exchange x) {
        JsonNode meta = x.request().path("params").path("_meta");
        JsonNode token = meta.path("progressToken");
        if (!token.isMissingNode() && !token.isTextual() && !token.isIntegralNumber()) {
            throw invalid("_meta.progressToken must be a string or an integer", "invalid_progress_token");
        }
        Optional<McpLogLevel> floor;
        if (x.stateless()) {
            JsonNode level = meta.path(META_LOG_LEVEL);
            floor = level.isMissingNode() ? Optional.empty() : Optional.of(level(level, "_meta." + META_LOG_LEVEL));
        } else {
            floor = x.sessionId().flatMap(id -> levels.get(id, x.caller().tenantId(), x.caller().sub()));
        }
        return new McpNotifier(x.stream(), token.isMissingNode() ? Optional.empty() : Optional.of(token), floor);
    }

    /** {@code logging/setLevel}: the session's minimum level for log notifications from now on. */
    ObjectNode setLevel(McpServer.Exchange x) {
        if (x.stateless()) {
            throw new McpServer.RpcError(McpServer.METHOD_NOT_FOUND, "protocol " + McpServer.V2026_07_28 + " has no "
                    + "logging/setLevel; put " + META_LOG_LEVEL + " in each request's _meta", Map.of());
        }
        McpLogLevel level = level(x.request().path("params").path("level"), "level");
        String session = x.sessionId().filter(McpLogLevels::wellFormed).orElseThrow(() -> new McpServer.RpcError(
                McpServer.INVALID_REQUEST, "logging/setLevel needs the Mcp-Session-Id header this server sent with "
                + "the initialize answer", Map.of("reason", "session_required")));
        levels.set(session, x.caller().tenantId(), x.caller().sub(), level);
        return NODES.objectNode();
    }

    private static McpLogLevel level(JsonNode value, String field) {
        return McpLogLevel.parse(value.asText("")).filter(l -> value.isTextual()).orElseThrow(() -> new McpServer.RpcError(
                McpServer.INVALID_PARAMS, field + " must be one of " + String.join(", ", McpLogLevel.wireNames()),
                Map.of("reason", "invalid_level", "levels", McpLogLevel.wireNames())));
    }

    private static McpServer.RpcError invalid(String message, String reason) {
        return new McpServer.RpcError(McpServer.INVALID_PARAMS, message, Map.of("reason", reason));
    }
}
