package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Digests;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * Console sessions, in PostgreSQL so every replica serves every session, and sign-ins in flight, which live only in
 * a cookie sealed with the console's key ({@link Seal}): starting a sign-in writes nothing on the server, so anonymous
 * {@code GET /ui/login} requests cannot fill anything up. The browser holds a random session id; the table holds its
 * SHA-256, the caller as last verified and the identity provider's refresh token (sealed for that session only).
 * Every {@code console.revalidate-seconds} a session in use is checked again with the provider: the refresh token is
 * redeemed and the caller rebuilt from the fresh access token (role, tenant, platform_admin); a refused refresh (user
 * disabled, session revoked or expired at the provider) ends the session. A session also ends at its expiry
 * ({@code console.session-ttl-minutes}) or at logout, whichever comes first.
 */
public final class ConsoleSessions {

    private static final System.Logger LOG = System.getLogger(ConsoleSessions.class.getName());
    /** How long a sign-in may take between leaving for the identity provider and coming back. */
    static final Duration LOGIN_TTL = Duration.ofMinutes(10);
    /** A longer return path is dropped for the default page: the sealed cookie must stay well under 4 KiB. */
    static final int MAX_RETURN_CHARS = 1024;
    private static final String LOGIN_PURPOSE = "svc-console sign-in v1";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A sign-in started: the state sent to the identity provider and what the callback needs. */
    public record PendingLogin(String state, String codeVerifier, String nonce, String returnTo, Instant expiresAt) {
        @Override
        public String toString() {
            return "PendingLogin[returnTo=" + returnTo + "]";
        }
    }

    /** Checks a session again with the identity provider. */
    public interface Revalidation {
        /**
         * The caller the provider vouches for now, acting in {@code actingTenant}, and the refresh token to keep.
         *
         * @throws dev.backplane.kernel.console.OidcLogin.RefreshRefused the session must end
         * @throws DomainException the provider could not be asked (the session stays; this request is refused)
         */
        Refreshed refresh(String refreshToken, UUID actingTenant) throws OidcLogin.RefreshRefused;
    }

    /** A successful re-validation. {@code toString} leaves the token out. */
    public record Refreshed(Caller caller, Optional<String> refreshToken) {
        @Override
        public String toString() {
            return "Refreshed[" + caller.sub() + "]";
        }
    }

    private final Jdbc jdbc;
    private final Seal seal;
    private final Duration ttl;
    private final Duration revalidateEvery;
    private final Revalidation revalidation;

    ConsoleSessions(Jdbc jdbc, Seal seal, Duration ttl, Duration revalidateEvery, Revalidation revalidation) {
        this.jdbc = jdbc;
        this.seal = seal;
        this.ttl = ttl;
        this.revalidateEvery = revalidateEvery;
        this.revalidation = revalidation;
    }

    /**
     * @param ttl how long a session lasts at most
     * @param revalidateEvery how often a session in use is checked again with the identity provider
     */
    public static ConsoleSessions create(Jdbc jdbc, Duration ttl, Duration revalidateEvery, Revalidation revalidation) {
        return new ConsoleSessions(jdbc, Seal.load(jdbc), ttl, revalidateEvery, revalidation);
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

    /** A new sign-in; nothing is stored: {@link #sealLogin} makes the cookie that carries it. */
    public PendingLogin startLogin(String returnTo) {
        String back = returnTo.length() <= MAX_RETURN_CHARS ? returnTo : "/ui/kb";
        return new PendingLogin(randomToken(), randomToken(), randomToken(), back,
                Instant.now().plus(LOGIN_TTL).truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    }

    /** The cookie value of {@code login}: encrypted and authenticated, so the browser can neither read nor alter it. */
    public String sealLogin(PendingLogin login) {
        // every field is URL-safe base64, a number or a checked local path (no control characters): newlines separate
        String plain = String.join("\n", String.valueOf(login.expiresAt().getEpochSecond()), login.state(),
                login.codeVerifier(), login.nonce(), login.returnTo());
        return seal.seal(LOGIN_PURPOSE, plain.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The sign-in {@code cookie} carries, if this console sealed it, it has not expired and it was started for
     * {@code state} (the state the identity provider sent back): a callback made from somebody else's sign-in
     * (login CSRF) does not carry this browser's cookie.
     */
    public Optional<PendingLogin> takeLogin(String cookie, String state) {
        Optional<String[]> fields = seal.open(LOGIN_PURPOSE, cookie)
                .map(b -> new String(b, StandardCharsets.UTF_8).split("\n", -1)).filter(f -> f.length == 5);
        if (fields.isEmpty() || state.isEmpty() || !MessageDigest.isEqual(fields.get()[1].getBytes(StandardCharsets.UTF_8),
                state.getBytes(StandardCharsets.UTF_8))) {
            return Optional.empty();
        }
        String[] f = fields.get();
        PendingLogin login = new PendingLogin(f[1], f[2], f[3], f[4], Instant.ofEpochSecond(Long.parseLong(f[0])));
        return login.expiresAt().isAfter(Instant.now()) ? Optional.of(login) : Optional.empty();
    }

    /** Opens a session for {@code caller}; returns the id for the cookie (never stored as is). */
    public String open(Caller caller, Optional<String> refreshToken) {
        String id = randomToken();
        String idHash = Digests.sha256Hex(id);
        jdbc.update("DELETE FROM console_sessions WHERE expires_at < now()");
        jdbc.update("INSERT INTO console_sessions (id_hash, sub, username, home_tenant_id, tenant_id, tenant_role, "
                        + "platform_admin, client_id, csrf_token, refresh_token, validated_at, expires_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), now() + make_interval(secs => ?))",
                idHash, caller.sub(), caller.username().orElse(null),
                caller.homeTenantId().orElse(null), caller.tenantId(), caller.role().wireName(),
                caller.platformAdmin(), caller.clientId().orElse(null), randomToken(),
                refreshToken.map(t -> sealRefresh(idHash, t)).orElse(null), (double) ttl.toSeconds());
        return id;
    }

    /**
     * The live session with this cookie value, if any, re-validated with the identity provider first when its last
     * check is older than {@code console.revalidate-seconds}.
     *
     * @throws DomainException {@code identity_provider_unavailable} when that check is due and the provider cannot
     *         be asked (the session stays; the next request asks again)
     */
    public Optional<ConsoleSession> find(String id) {
        String idHash = Digests.sha256Hex(id);
        record Row(ConsoleSession session, boolean stale) {
        }
        Optional<Row> row = jdbc.queryOne("SELECT *, validated_at <= now() - make_interval(secs => ?) AS stale "
                        + "FROM console_sessions WHERE id_hash = ? AND expires_at > now()",
                rs -> new Row(session(rs), rs.getBoolean("stale")), (double) revalidateEvery.toSeconds(), idHash);
        if (row.isEmpty() || !row.get().stale()) {
            return row.map(Row::session);
        }
        // one request (of any replica) claims the check; the others go on with the caller as last checked meanwhile
        Optional<Optional<String>> claimed = jdbc.queryOne("UPDATE console_sessions SET validated_at = now() "
                        + "WHERE id_hash = ? AND validated_at <= now() - make_interval(secs => ?) RETURNING refresh_token",
                rs -> Optional.ofNullable(rs.getString(1)), idHash, (double) revalidateEvery.toSeconds());
        if (claimed.isEmpty()) {
            return row.map(Row::session);
        }
        return revalidate(id, idHash, row.get().session(), claimed.get());
    }

    private Optional<ConsoleSession> revalidate(String id, String idHash, ConsoleSession current, Optional<String> sealed) {
        Caller was = current.caller();
        Optional<String> refreshToken = sealed.flatMap(s -> seal.open(refreshPurpose(idHash), s))
                .map(b -> new String(b, StandardCharsets.UTF_8));
        if (refreshToken.isEmpty()) {
            return end(id, was, "it holds no refresh token to re-validate with");
        }
        Refreshed fresh;
        try {
            fresh = revalidation.refresh(refreshToken.get(), was.tenantId());
        } catch (OidcLogin.RefreshRefused e) {
            return end(id, was, "the identity provider refused its refresh (" + e.getMessage() + ")");
        } catch (DomainException e) {
            jdbc.update("UPDATE console_sessions SET validated_at = '-infinity' WHERE id_hash = ?", idHash);
            throw e;
        }
        Caller now = fresh.caller();
        if (!now.sub().equals(was.sub())) {
            return end(id, was, "the refreshed token names another subject");
        }
        jdbc.update("UPDATE console_sessions SET username = ?, home_tenant_id = ?, tenant_id = ?, tenant_role = ?, "
                        + "platform_admin = ?, client_id = ?, refresh_token = coalesce(?, refresh_token) WHERE id_hash = ?",
                now.username().orElse(null), now.homeTenantId().orElse(null), now.tenantId(), now.role().wireName(),
                now.platformAdmin(), now.clientId().orElse(null),
                fresh.refreshToken().map(t -> sealRefresh(idHash, t)).orElse(null), idHash);
        if (now.role() != was.role() || now.platformAdmin() != was.platformAdmin()) {
            LOG.log(Level.INFO, "console session of " + was.sub() + " re-validated with changed rights: " + was.role()
                    .wireName() + (was.platformAdmin() ? "+platform_admin" : "") + " -> " + now.role().wireName()
                    + (now.platformAdmin() ? "+platform_admin" : ""));
        }
        return Optional.of(new ConsoleSession(new Caller(now.sub(), now.username(), now.homeTenantId(), now.tenantId(),
                now.role(), now.platformAdmin(), PrincipalKind.HUMAN, now.clientId()), current.csrfToken()));
    }

    private Optional<ConsoleSession> end(String id, Caller caller, String why) {
        close(id);
        LOG.log(Level.INFO, "console session of " + caller.sub() + " ended: " + why);
        return Optional.empty();
    }

    private String sealRefresh(String idHash, String refreshToken) {
        return seal.seal(refreshPurpose(idHash), refreshToken.getBytes(StandardCharsets.UTF_8));
    }

    /** A refresh token opens only for the session it was sealed for (a row copied onto another id does not). */
    private static String refreshPurpose(String idHash) {
        return "svc-console refresh token v1 " + idHash;
    }

    private static ConsoleSession session(ResultSet rs) throws SQLException {
        Caller caller = new Caller(rs.getString("sub"), Optional.ofNullable(rs.getString("username")),
                Optional.ofNullable(rs.getObject("home_tenant_id", UUID.class)), rs.getObject("tenant_id", UUID.class),
                Role.parse(rs.getString("tenant_role")).orElseThrow(), rs.getBoolean("platform_admin"),
                PrincipalKind.HUMAN, Optional.ofNullable(rs.getString("client_id")));
        return new ConsoleSession(caller, rs.getString("csrf_token"));
    }

    /** Points a platform_admin's session at another tenant (the caller checks who may). */
    public void switchTenant(String id, UUID tenant) {
        jdbc.update("UPDATE console_sessions SET tenant_id = ? WHERE id_hash = ?", tenant, Digests.sha256Hex(id));
    }

    public void close(String id) {
        jdbc.update("DELETE FROM console_sessions WHERE id_hash = ?", Digests.sha256Hex(id));
    }
}
