package dev.backplane.kernel.console;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL for console sessions ({@code console_sessions}): rows keyed by the SHA-256 of the session id, holding the caller
 * as last verified, the CSRF token and the identity provider's tokens, sealed (column {@code refresh_token}: the refresh
 * token and the ID token); no rules (when to re-validate, what ends a session).
 */
final class ConsoleSessionStore {

    /** A live session and whether its last check with the identity provider is older than the interval. */
    record Live(ConsoleSession session, boolean stale) {
    }

    private final Jdbc jdbc;

    ConsoleSessionStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Drops expired sessions, then stores a new one checked now, lasting {@code ttl}. */
    void insert(String idHash, Caller caller, String csrfToken, String sealedRefreshToken, Duration ttl) {
        jdbc.update("DELETE FROM console_sessions WHERE expires_at < now()");
        jdbc.update("INSERT INTO console_sessions (id_hash, sub, username, home_tenant_id, tenant_id, tenant_role, "
                        + "platform_admin, client_id, csrf_token, refresh_token, validated_at, expires_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), now() + make_interval(secs => ?))",
                idHash, caller.sub(), caller.username().orElse(null),
                caller.homeTenantId().orElse(null), caller.tenantId(), caller.role().wireName(),
                caller.platformAdmin(), caller.clientId().orElse(null), csrfToken,
                sealedRefreshToken, (double) ttl.toSeconds());
    }

    /** The unexpired session {@code idHash}; stale when it was last checked {@code revalidateEvery} ago or more. */
    Optional<Live> findLive(String idHash, Duration revalidateEvery) {
        return jdbc.queryOne("SELECT *, validated_at <= now() - make_interval(secs => ?) AS stale "
                        + "FROM console_sessions WHERE id_hash = ? AND expires_at > now()",
                rs -> new Live(session(rs), rs.getBoolean("stale")), (double) revalidateEvery.toSeconds(), idHash);
    }

    /**
     * Claims the due check of session {@code idHash} (one statement, so one request of any replica wins): empty when
     * another request claimed it first, else the sealed refresh token (itself empty when the session holds none).
     */
    Optional<Optional<String>> claimCheck(String idHash, Duration revalidateEvery) {
        return jdbc.queryOne("UPDATE console_sessions SET validated_at = now() "
                        + "WHERE id_hash = ? AND validated_at <= now() - make_interval(secs => ?) RETURNING refresh_token",
                rs -> Optional.ofNullable(rs.getString(1)), idHash, (double) revalidateEvery.toSeconds());
    }

    /** Makes the next request check session {@code idHash} again (the identity provider could not be asked). */
    void checkAgain(String idHash) {
        jdbc.update("UPDATE console_sessions SET validated_at = '-infinity' WHERE id_hash = ?", idHash);
    }

    /** Stores the caller a check vouched for; a null {@code sealedRefreshToken} keeps the tokens stored. */
    void revalidated(String idHash, Caller now, String sealedRefreshToken) {
        jdbc.update("UPDATE console_sessions SET username = ?, home_tenant_id = ?, tenant_id = ?, tenant_role = ?, "
                        + "platform_admin = ?, client_id = ?, refresh_token = coalesce(?, refresh_token) WHERE id_hash = ?",
                now.username().orElse(null), now.homeTenantId().orElse(null), now.tenantId(), now.role().wireName(),
                now.platformAdmin(), now.clientId().orElse(null), sealedRefreshToken, idHash);
    }

    void switchTenant(String idHash, UUID tenant) {
        jdbc.update("UPDATE console_sessions SET tenant_id = ? WHERE id_hash = ?", tenant, idHash);
    }

    /** Deletes session {@code idHash}; returns its sealed tokens (itself empty when it held none), empty if none. */
    Optional<Optional<String>> delete(String idHash) {
        return jdbc.queryOne("DELETE FROM console_sessions WHERE id_hash = ? RETURNING refresh_token",
                rs -> Optional.ofNullable(rs.getString(1)), idHash);
    }

    private static ConsoleSession session(ResultSet rs) throws SQLException {
        Caller caller = new Caller(rs.getString("sub"), Optional.ofNullable(rs.getString("username")),
                Optional.ofNullable(rs.getObject("home_tenant_id", UUID.class)), rs.getObject("tenant_id", UUID.class),
                Role.parse(rs.getString("tenant_role")).orElseThrow(), rs.getBoolean("platform_admin"),
                PrincipalKind.HUMAN, Optional.ofNullable(rs.getString("client_id")));
        return new ConsoleSession(caller, rs.getString("csrf_token"));
    }
}
