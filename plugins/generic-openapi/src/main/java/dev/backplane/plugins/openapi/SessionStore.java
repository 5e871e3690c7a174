package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The session and access tokens of one ingested connector, shared by all its sessions. Entries are keyed
 * by a SHA-256 digest of where and as whom (never the secret text itself); one login runs per key at a
 * time, so concurrent calls reuse a token instead of each logging in. A lock, not {@code synchronized},
 * guards the login: it does I/O on a virtual thread.
 */
final class SessionStore {

    private final ConcurrentHashMap<String, SessionToken> tokens = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    /**
     * A usable token for {@code key}: the cached one, else one from {@code login}.
     *
     * @return the token and whether it came from the cache
     */
    Lease lease(String key, Clock clock, Supplier<SessionToken> login) {
        SessionToken cached = tokens.get(key);
        if (cached != null && cached.usableAt(clock.instant())) {
            return new Lease(cached, true);
        }
        ReentrantLock lock = locks.computeIfAbsent(key, k -> new ReentrantLock());
        lock.lock();
        try {
            cached = tokens.get(key);
            if (cached != null && cached.usableAt(clock.instant())) {
                return new Lease(cached, true);
            }
            SessionToken fresh = requireNonNull(login.get(), "login returned no token");
            tokens.put(key, fresh);
            return new Lease(fresh, false);
        } finally {
            lock.unlock();
        }
    }

    /** Forgets {@code stale} (if it is still the cached token of {@code key}). */
    void drop(String key, SessionToken stale) {
        tokens.remove(key, stale);
    }

    int size() {
        return tokens.size();
    }

    /** A hex SHA-256 over the parts, each length-prefixed so that no two part lists collide. */
    static String key(List<String> parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
                sha.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
                sha.update(bytes);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /**
     * A token handed to one request.
     *
     * @param token the token
     * @param reused true when it came from the cache (so a 401 may mean it went stale)
     */
    record Lease(SessionToken token, boolean reused) {
    }
}
