package dev.backplane.kernel.console;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Digests;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * Console sessions and sign-ins in flight, in PostgreSQL so every replica serves every session. The
 * browser holds a random session id; the table holds its SHA-256. A session ends at its expiry
 * (setting {@code console.session-ttl-minutes}) or at logout, whichever comes first.
 */
public final class ConsoleSessions {

    /** How long a sign-in may take between leaving for the identity provider and coming back. */
    static final Duration LOGIN_TTL = Duration.ofMinutes(10);
    /** Sign-ins in flight at most: anyone may start one, so their rows are bounded (429 past this). */
    static final int MAX_PENDING_LOGINS = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A sign-in started: the state sent to the identity provider and what the callback needs. */
    public record PendingLogin(String state, String codeVerifier, String nonce, String returnTo) {
        @Override
        public String toString() {
            return "PendingLogin[returnTo=" + returnTo + "]";
        }
    }

    private final Jdbc jdbc;
    private final Duration ttl;

    public ConsoleSessions(Jdbc jdbc, Duration ttl) {
        this.jdbc = jdbc;
        this.ttl = ttl;
    }

    /** A URL-safe random value of 32 bytes (session ids, CSRF tokens, OAuth state, PKCE verifier, nonce). */
    public static String randomToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public Duration ttl() {
        return ttl;
    }

    public PendingLogin startLogin(String returnTo) {
        jdbc.update("DELETE FROM console_logins WHERE expires_at < now()");
        long pending = jdbc.queryOne("SELECT count(*) FROM console_logins", rs -> rs.getLong(1)).orElse(0L);
        if (pending >= MAX_PENDING_LOGINS) {
            throw ConsoleErrors.TOO_MANY_SIGN_INS.error("too many sign-ins are in progress; try again in a few minutes");
        }
        PendingLogin login = new PendingLogin(randomToken(), randomToken(), randomToken(), returnTo);
        jdbc.update("INSERT INTO console_logins (state_hash, code_verifier, nonce, return_to, expires_at) "
                + "VALUES (?, ?, ?, ?, now() + make_interval(secs => ?))", Digests.sha256Hex(login.state()),
                login.codeVerifier(), login.nonce(), returnTo, (double) LOGIN_TTL.toSeconds());
        return login;
    }

    /** Takes (and so uses up) the sign-in that sent {@code state}, if it exists and has not expired. */
    public Optional<PendingLogin> takeLogin(String state) {
        record Taken(PendingLogin login, boolean live) {
        }
        return jdbc.queryOne("DELETE FROM console_logins WHERE state_hash = ? RETURNING code_verifier, nonce, "
                        + "return_to, expires_at > now() AS live",
                rs -> new Taken(new PendingLogin(state, rs.getString("code_verifier"), rs.getString("nonce"),
                        rs.getString("return_to")), rs.getBoolean("live")),
                Digests.sha256Hex(state)).filter(Taken::live).map(Taken::login);
    }

    /** Opens a session for {@code caller}; returns the id for the cookie (never stored as is). */
    public String open(Caller caller) {
        String id = randomToken();
        jdbc.update("DELETE FROM console_sessions WHERE expires_at < now()");
        jdbc.update("INSERT INTO console_sessions (id_hash, sub, username, home_tenant_id, tenant_id, tenant_role, "
                        + "platform_admin, client_id, csrf_token, expires_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, now() + make_interval(secs => ?))",
                Digests.sha256Hex(id), caller.sub(), caller.username().orElse(null),
                caller.homeTenantId().orElse(null), caller.tenantId(), caller.role().wireName(),
                caller.platformAdmin(), caller.clientId().orElse(null), randomToken(), (double) ttl.toSeconds());
        return id;
    }

    /** The live session with this cookie value, if any. */
    public Optional<ConsoleSession> find(String id) {
        return jdbc.queryOne("SELECT * FROM console_sessions WHERE id_hash = ? AND expires_at > now()", rs -> {
            Caller caller = new Caller(rs.getString("sub"), Optional.ofNullable(rs.getString("username")),
                    Optional.ofNullable(rs.getObject("home_tenant_id", UUID.class)), rs.getObject("tenant_id", UUID.class),
                    Role.parse(rs.getString("tenant_role")).orElseThrow(), rs.getBoolean("platform_admin"),
                    PrincipalKind.HUMAN, Optional.ofNullable(rs.getString("client_id")));
            return new ConsoleSession(caller, rs.getString("csrf_token"));
        }, Digests.sha256Hex(id));
    }

    /** Points a platform_admin's session at another tenant (the caller checks who may). */
    public void switchTenant(String id, UUID tenant) {
        jdbc.update("UPDATE console_sessions SET tenant_id = ? WHERE id_hash = ?", tenant, Digests.sha256Hex(id));
    }

    public void close(String id) {
        jdbc.update("DELETE FROM console_sessions WHERE id_hash = ?", Digests.sha256Hex(id));
    }
}
