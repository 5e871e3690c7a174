package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.TextGuard;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * One JSON-RPC 2.0 message off an MCP POST, checked: its size, JSON, no batch, the version, the text guard, a method
 * with a well-typed id and params. What fails is answered with the JSON-RPC error and the HTTP status the MCP
 * transport gives it.
 */
final class JsonRpcMessages {

    private JsonRpcMessages() {
    }

    /**
     * The body as one JSON-RPC 2.0 message with a method (a request or a notification); else its error is sent, or
     * a response to nothing asked is acknowledged, and there is none.
     */
    static Optional<JsonNode> read(ServerRequest req, ServerResponse res) {
        byte[] body;
        try {
            body = Json.body(req, Json.MAX_BODY_BYTES, () -> CommonErrors.BODY_TOO_LARGE.error("message exceeds "
                    + Json.MAX_BODY_BYTES + " bytes"));
        } catch (DomainException e) {
            if (e.kind() == ErrorKind.TOO_LARGE) {
                error(res, Status.REQUEST_ENTITY_TOO_LARGE_413, null, McpServer.INVALID_REQUEST, e.getMessage(),
                        Map.of());
            } else {
                error(res, Status.BAD_REQUEST_400, null, McpServer.PARSE_ERROR, "could not read the body", Map.of());
            }
            return Optional.empty();
        }
        JsonNode msg;
        try {
            msg = JsonMapping.mapper().readTree(body);
        } catch (IOException e) {
            error(res, Status.BAD_REQUEST_400, null, McpServer.PARSE_ERROR, "not JSON", Map.of());
            return Optional.empty();
        }
        if (msg == null || msg.isArray()) {
            error(res, Status.BAD_REQUEST_400, null, McpServer.INVALID_REQUEST, msg == null ? "empty message"
                    : "JSON-RPC batches are not supported; send one message per request", Map.of());
            return Optional.empty();
        }
        if (!msg.isObject() || !"2.0".equals(msg.path("jsonrpc").asText(null))) {
            error(res, Status.BAD_REQUEST_400, null, McpServer.INVALID_REQUEST, "not a JSON-RPC 2.0 message",
                    Map.of());
            return Optional.empty();
        }
        JsonNode id = msg.get("id");
        try {
            TextGuard.check(msg);
        } catch (DomainException refused) {
            error(res, Status.OK_200, id, McpServer.INVALID_PARAMS, refused.getMessage(),
                    Map.of("reason", refused.code()));
            return Optional.empty();
        }
        if (!msg.has("method")) {
            if (msg.has("result") || msg.has("error")) {
                res.status(Status.ACCEPTED_202).send(); // a response to nothing we asked: acknowledged, ignored
            } else {
                error(res, Status.BAD_REQUEST_400, id, McpServer.INVALID_REQUEST, "a request needs a method", Map.of());
            }
            return Optional.empty();
        }
        if (!msg.path("method").isTextual() || (id != null && !id.isTextual() && !id.isIntegralNumber())
                || (msg.has("params") && !msg.path("params").isObject())) {
            error(res, Status.BAD_REQUEST_400, id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null,
                    McpServer.INVALID_REQUEST, "method must be a string, id a string or integer, params an object",
                    Map.of());
            return Optional.empty();
        }
        return Optional.of(msg);
    }

    /** Sends a JSON-RPC error with {@code status}. */
    static void error(ServerResponse res, Status status, JsonNode id, int code, String message,
                      Map<String, Object> data) {
        Json.send(res, status, McpServer.errorMessage(id, code, message, data));
    }
}
