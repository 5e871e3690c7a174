package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.identity.Caller;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The audit session of an MCP client's calls: the {@code session_id} on the audit rows its tool calls write, so
 * {@code svc audit replay <session-id>} ({@code GET /api/v1/audit/sessions/{session_id}}) shows one client's
 * conversation as it does an agent run's. Nothing is stored: the id is a name-based UUID (version 5) over the
 * caller's tenant and subject and a value the client sends again on every request, so every replica derives the
 * same id, and the same value presented by another principal gives another id — no caller can put rows into
 * someone else's session. The value, first found wins:
 * <ol>
 * <li>{@code _meta["dev.backplane/session"]} (any revision): a conversation id the client chooses. The stateless
 *     2026-07-28 revision has no session ({@code basic/index}, "Statelessness": state spanning requests "MUST be
 *     referenced by an explicit identifier the client passes on each request"); a vendor-prefixed {@code _meta}
 *     key is how a client passes one ("General fields", {@code _meta}). 1..128 visible ASCII characters, else
 *     {@code -32602} ({@code data.reason invalid_session}).</li>
 * <li>the {@code Mcp-Session-Id} header of the handshake revisions (the one the {@code initialize} answer handed
 *     out), when it is 1..128 visible ASCII characters; the stateless revision's is ignored.</li>
 * <li>the token's {@code sid} claim (the identity provider's login session), when it carries one: a stateless
 *     client that sends no key is grouped by its login.</li>
 * </ol>
 * With none of them the rows carry no session, as before. The id is told back on every {@code tools/call} result as
 * {@code _meta["dev.backplane/auditSession"]}.
 */
final class McpSessions {

    static final String META_SESSION = "dev.backplane/session";
    static final String META_AUDIT_SESSION = "dev.backplane/auditSession";
    static final int MAX_VALUE = 128;
    /** The namespace of these name-based UUIDs (a fixed random UUID; changing it would split every session). */
    private static final UUID NAMESPACE = UUID.fromString("3f5d9a62-7c1e-4b8a-9d0f-6e2b1c4a8e57");

    private McpSessions() {
    }

    /** Where the client's value came from; part of the name, so the sources never share an id. */
    enum Source { META, HEADER, SID }

    /**
     * The session of one request by {@code caller}: from its {@code _meta}, the {@code Mcp-Session-Id} it sent
     * ({@code header}, already empty for the stateless revision) or its token's {@code sid}.
     */
    static Optional<UUID> of(Caller caller, JsonNode meta, Optional<String> header, Optional<String> sid) {
        JsonNode chosen = meta.path(META_SESSION);
        if (!chosen.isMissingNode()) {
            if (!chosen.isTextual() || !wellFormed(chosen.asText())) {
                throw new McpServer.RpcError(McpServer.INVALID_PARAMS, "_meta." + META_SESSION + " must be a string of 1.."
                        + MAX_VALUE + " visible ASCII characters", Map.of("reason", "invalid_session",
                        "field", "_meta." + META_SESSION));
            }
            return Optional.of(derive(caller, Source.META, chosen.asText()));
        }
        Optional<String> sessionHeader = header.filter(McpSessions::wellFormed);
        if (sessionHeader.isPresent()) {
            return Optional.of(derive(caller, Source.HEADER, sessionHeader.get()));
        }
        return sid.filter(v -> !v.isBlank() && v.length() <= 1024).map(v -> derive(caller, Source.SID, v));
    }

    /** 1..128 characters from {@code !} to {@code ~} (the 2025 revisions' rule for a session id). */
    static boolean wellFormed(String value) {
        return !value.isEmpty() && value.length() <= MAX_VALUE && value.chars().allMatch(c -> c >= 0x21 && c <= 0x7E);
    }

    /** The id of {@code value} from {@code source} for this caller's tenant and subject. */
    static UUID derive(Caller caller, Source source, String value) {
        StringBuilder name = new StringBuilder("mcp-session");
        for (String part : new String[] {caller.tenantId().toString(), caller.sub(), source.name(), value}) {
            name.append('/').append(part.length()).append(':').append(part); // length-prefixed: unambiguous
        }
        return v5(NAMESPACE, name.toString());
    }

    /** RFC 9562 §5.5: SHA-1 over namespace and name, version 5, the RFC variant. */
    static UUID v5(UUID namespace, String name) {
        MessageDigest sha1;
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
        sha1.update(ByteBuffer.allocate(16).putLong(namespace.getMostSignificantBits())
                .putLong(namespace.getLeastSignificantBits()).array());
        byte[] h = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
        h[6] = (byte) ((h[6] & 0x0f) | 0x50);
        h[8] = (byte) ((h[8] & 0x3f) | 0x80);
        ByteBuffer b = ByteBuffer.wrap(h, 0, 16);
        return new UUID(b.getLong(), b.getLong());
    }
}
