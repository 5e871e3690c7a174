package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.Status;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What the stateless 2026-07-28 revision requires of a request before any method runs, and which requests
 * speak it. The rules and where they come from (the revision's pages under
 * https://modelcontextprotocol.io/specification/2026-07-28/):
 * <ul>
 * <li>{@code basic/index} ("Per-request protocol fields"): {@code _meta} must carry
 *     {@code io.modelcontextprotocol/protocolVersion} and {@code io.modelcontextprotocol/clientCapabilities};
 *     a request missing either is {@code -32602} with HTTP 400.</li>
 * <li>{@code basic/transports/streamable-http} ("Server Validation"): {@code MCP-Protocol-Version},
 *     {@code Mcp-Method} and — for {@code tools/call}, {@code resources/read}, {@code prompts/get} —
 *     {@code Mcp-Name} are required and must equal the body's version, method and {@code params.name} /
 *     {@code params.uri}; a missing, malformed or disagreeing header is {@code -32020} (HeaderMismatch) with
 *     HTTP 400. An {@code Mcp-Name} of the form {@code =?base64?…?=} ("Value Encoding") is decoded (Base64 of
 *     UTF-8) before the comparison.</li>
 * <li>{@code basic/versioning} ("Protocol Version Negotiation") and the transport's "Protocol Version
 *     Header": a version the server does not serve per request is {@code -32022}
 *     (UnsupportedProtocolVersion) with {@code data.supported} and {@code data.requested}, HTTP 400.</li>
 * <li>The transport's "Sending Messages": the revision defines no client-to-server notification over
 *     Streamable HTTP, so a notification is not accepted (HTTP 404, {@code -32601}, no id).</li>
 * </ul>
 * The checks run in that order: {@code _meta}, then the version header against {@code _meta}, then the
 * version, then method and name headers.
 */
final class StatelessRequests {

    static final String HEADER_VERSION = "MCP-Protocol-Version";
    static final String HEADER_METHOD = "Mcp-Method";
    static final String HEADER_NAME = "Mcp-Name";
    static final String META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    /** Methods whose {@code Mcp-Name} header mirrors {@code params.name} or {@code params.uri}. */
    private static final Set<String> NAMED = Set.of("tools/call", "resources/read", "prompts/get");
    private static final String BASE64_PREFIX = "=?base64?";
    private static final String BASE64_SUFFIX = "?=";

    private StatelessRequests() {
    }

    /** A refusal: the HTTP status and the JSON-RPC error that go with it. */
    record Refusal(Status status, int code, String message, Map<String, Object> data) {
    }

    /**
     * Whether a message speaks the stateless revision: its {@code MCP-Protocol-Version} header names it, or its
     * {@code _meta} declares a protocol version at all (the handshake revisions never put one there).
     */
    static boolean speaks(Optional<String> versionHeader, JsonNode msg) {
        return versionHeader.equals(Optional.of(McpServer.V2026_07_28))
                || !msg.path("params").path("_meta").path(McpServer.META_VERSION).isMissingNode();
    }

    /** Why the request cannot be served statelessly, or empty; {@code header} reads a request header. */
    static Optional<Refusal> check(JsonNode msg, Function<String, Optional<String>> header) {
        JsonNode meta = msg.path("params").path("_meta");
        if (!meta.isObject()) {
            return invalidMeta("_meta", "missing_meta");
        }
        JsonNode version = meta.path(McpServer.META_VERSION);
        if (!version.isTextual()) {
            return invalidMeta("_meta." + McpServer.META_VERSION, "missing_protocol_version");
        }
        if (!meta.path(META_CAPABILITIES).isObject()) {
            return invalidMeta("_meta." + META_CAPABILITIES, "missing_client_capabilities");
        }
        String requested = version.asText();
        Optional<String> refused = mismatch(HEADER_VERSION, header.apply(HEADER_VERSION), requested, false);
        if (refused.isPresent()) {
            return refused.map(StatelessRequests::headerMismatch);
        }
        if (!requested.equals(McpServer.V2026_07_28)) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("supported", McpServer.ALL_VERSIONS);
            data.put("requested", requested);
            return Optional.of(new Refusal(Status.BAD_REQUEST_400, McpServer.UNSUPPORTED_PROTOCOL_VERSION,
                    "Unsupported protocol version " + requested + ": per-request _meta speaks "
                            + McpServer.V2026_07_28 + "; " + McpServer.V2025_11_25 + " and " + McpServer.V2025_06_18
                            + " are served after an initialize handshake", data));
        }
        String method = msg.path("method").asText();
        refused = mismatch(HEADER_METHOD, header.apply(HEADER_METHOD), method, false);
        if (refused.isEmpty() && NAMED.contains(method)) {
            JsonNode name = msg.path("params").path(method.equals("resources/read") ? "uri" : "name");
            refused = mismatch(HEADER_NAME, header.apply(HEADER_NAME), name.isTextual() ? name.asText() : null, true);
        }
        return refused.map(StatelessRequests::headerMismatch);
    }

    /** A notification of the stateless revision: none is defined over Streamable HTTP. */
    static Refusal notification(String method) {
        return new Refusal(Status.NOT_FOUND_404, McpServer.METHOD_NOT_FOUND, "Method not found: " + method + " ("
                + McpServer.V2026_07_28 + " defines no client notification over Streamable HTTP)", Map.of());
    }

    /**
     * Why a header does not carry {@code body}, or empty: it is missing, holds characters a header value may not
     * (RFC 9110: visible ASCII, space, tab), or differs. {@code encodable} headers are Base64-decoded first when
     * they use the {@code =?base64?…?=} form; a malformed one differs from anything.
     */
    private static Optional<String> mismatch(String name, Optional<String> raw, String body, boolean encodable) {
        if (raw.isEmpty()) {
            return Optional.of("the " + name + " header is required");
        }
        String value = raw.get();
        if (!value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c <= 0x7E))) {
            return Optional.of("the " + name + " header holds characters a header value may not");
        }
        if (encodable && value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX)
                && value.length() >= BASE64_PREFIX.length() + BASE64_SUFFIX.length()) {
            Optional<String> decoded = decode(value.substring(BASE64_PREFIX.length(),
                    value.length() - BASE64_SUFFIX.length()));
            if (decoded.isEmpty()) {
                return Optional.of("the " + name + " header is not valid =?base64?…?= (Base64 of UTF-8)");
            }
            value = decoded.get();
        }
        if (body == null || !value.equals(body)) {
            // the body value is the caller's own input; quoting it back tells them nothing new
            return Optional.of("the " + name + " header does not match the message"
                    + (body == null ? "" : " (" + shorten(body) + ")"));
        }
        return Optional.empty();
    }

    private static Optional<String> decode(String base64) {
        try {
            byte[] bytes = Base64.getDecoder().decode(base64);
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString());
        } catch (IllegalArgumentException | CharacterCodingException e) {
            return Optional.empty();
        }
    }

    private static String shorten(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }

    private static Refusal headerMismatch(String why) {
        return new Refusal(Status.BAD_REQUEST_400, McpServer.HEADER_MISMATCH, "Header mismatch: " + why,
                Map.of("reason", "header_mismatch"));
    }

    private static Optional<Refusal> invalidMeta(String field, String reason) {
        return Optional.of(new Refusal(Status.BAD_REQUEST_400, McpServer.INVALID_PARAMS, "a " + McpServer.V2026_07_28
                + " request needs params." + field + " (protocol version and client capabilities travel in every "
                + "request's _meta)", Map.of("reason", reason, "field", "params." + field)));
    }
}
