package dev.backplane.kernel.mcp;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The minimum log level a handshake-revision client set with {@code logging/setLevel}, per MCP session.
 * The server keeps no other session state: {@code initialize} hands out an {@code Mcp-Session-Id} (a
 * random UUID) and nothing is stored until the client sets a level. The level lives in a bounded cache
 * ({@value #MAX_SESSIONS} sessions, forgotten {@link #IDLE} after the session's last request), keyed by
 * the session id <em>and</em> the caller's tenant and subject, so a session id presented by anyone else
 * finds nothing. A session whose level was forgotten (idle, evicted, another kernel replica, a restart)
 * is not refused with 404 — that would force a new handshake for a log setting — it simply gets no log
 * notifications until it sets a level again. The stateless 2026-07-28 revision has no sessions and no
 * {@code logging/setLevel}: its level travels in each request's {@code _meta}.
 */
final class McpLogLevels {

    static final int MAX_SESSIONS = 10_000;
    static final Duration IDLE = Duration.ofHours(1);
    private static final Pattern SESSION_ID = Pattern.compile(
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private record Key(String sessionId, UUID tenant, String sub) {
    }

    private final Cache<Key, McpLogLevel> levels = Caffeine.newBuilder().maximumSize(MAX_SESSIONS)
            .expireAfterAccess(IDLE).build();

    /** A new session id for an {@code initialize} answer. */
    static String newSessionId() {
        return UUID.randomUUID().toString();
    }

    /** Whether {@code id} has the shape of an id {@link #newSessionId()} hands out. */
    static boolean wellFormed(String id) {
        return SESSION_ID.matcher(id).matches();
    }

    void set(String sessionId, UUID tenant, String sub, McpLogLevel level) {
        levels.put(new Key(sessionId, tenant, sub), level);
    }

    Optional<McpLogLevel> get(String sessionId, UUID tenant, String sub) {
        return Optional.ofNullable(levels.getIfPresent(new Key(sessionId, tenant, sub)));
    }
}
