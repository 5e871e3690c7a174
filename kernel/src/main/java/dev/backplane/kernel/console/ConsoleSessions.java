package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Digests;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * Console sessions, in PostgreSQL ({@link ConsoleSessionStore}) so every replica serves every session, and sign-ins
 * in flight, which live only in a cookie sealed with the console's key ({@link SignInCookie}): starting a sign-in
 * writes nothing on the server, so anonymous {@code GET /ui/login} requests cannot fill anything up. The browser
 * holds a random session id; the table holds its SHA-256, the caller as last verified and the identity provider's
 * refresh token and ID token (sealed together, for that session only; the ID token names the session at the
 * provider's logout).
 * Every {@code console.revalidate-seconds} a session in use is checked again with the provider: the refresh token is
 * redeemed and the caller rebuilt from the fresh access token (role, tenant, platform_admin); a refused refresh (user
 * disabled, session revoked or expired at the provider) ends the session. A session also ends at its expiry
 * ({@code console.session-ttl-minutes}) or at logout, whichever comes first.
 */
public final class ConsoleSessions {

    private static final System.Logger LOG = System.getLogger(ConsoleSessions.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Checks a session again with the identity provider. */
    public interface Revalidation {
        /**
         * The caller the provider vouches for now, acting in {@code actingTenant}, and the refresh token to keep.
         *
         * @throws OidcLogin.RefreshRefused the session must end
         * @throws DomainException the provider could not be asked (the session stays; this request is refused)
         */
        Refreshed refresh(String refreshToken, UUID actingTenant) throws OidcLogin.RefreshRefused;
    }

    /**
     * A successful re-validation: the caller and the tokens to keep (an empty one keeps the one held).
     * {@code toString} leaves the tokens out.
     */
    public record Refreshed(Caller caller, Optional<String> refreshToken, Optional<String> idToken) {
        @Override
        public String toString() {
            return "Refreshed[" + caller.sub() + "]";
        }
    }

    private final ConsoleSessionStore store;
    private final Seal seal;
    private final SignInCookie signIns;
    private final Duration ttl;
    private final Duration revalidateEvery;
    private final Revalidation revalidation;

    ConsoleSessions(Jdbc jdbc, Seal seal, Duration ttl, Duration revalidateEvery, Revalidation revalidation) {
        this.store = new ConsoleSessionStore(jdbc);
        this.seal = seal;
        this.signIns = new SignInCookie(seal);
        this.ttl = ttl;
        this.revalidateEvery = revalidateEvery;
        this.revalidation = revalidation;
    }

    /**
     * @param ttl how long a session lasts at most
     * @param revalidateEvery how often a session in use is checked again with the identity provider
     */
    public static ConsoleSessions create(Jdbc jdbc, Duration ttl, Duration revalidateEvery, Revalidation revalidation) {
        return new ConsoleSessions(jdbc, Seal.load(new SealKeyStore(jdbc)), ttl, revalidateEvery, revalidation);
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
        return signIns.start(returnTo);
    }

    /** The cookie value of {@code login}, sealed (see {@link SignInCookie#seal}). */
    public String sealLogin(PendingLogin login) {
        return signIns.seal(login);
    }

    /** The sign-in {@code cookie} carries if it is this console's, unexpired and for {@code state}. */
    public Optional<PendingLogin> takeLogin(String cookie, String state) {
        return signIns.take(cookie, state);
    }

    /**
     * Opens a session for {@code caller}, keeping the provider's refresh token (to re-validate with) and ID token (the
     * hint for its logout), sealed; returns the id for the cookie (never stored as is).
     */
    public String open(Caller caller, Optional<String> refreshToken, Optional<String> idToken) {
        String id = randomToken();
        String idHash = Digests.sha256Hex(id);
        store.insert(idHash, caller, randomToken(), sealTokens(idHash, new HeldTokens(refreshToken, idToken)), ttl);
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
        Optional<ConsoleSessionStore.Live> row = store.findLive(idHash, revalidateEvery);
        if (row.isEmpty() || !row.get().stale()) {
            return row.map(ConsoleSessionStore.Live::session);
        }
        // one request (of any replica) claims the check; the others go on with the caller as last checked meanwhile
        Optional<Optional<String>> claimed = store.claimCheck(idHash, revalidateEvery);
        if (claimed.isEmpty()) {
            return row.map(ConsoleSessionStore.Live::session);
        }
        return revalidate(id, idHash, row.get().session(), claimed.get());
    }

    private Optional<ConsoleSession> revalidate(String id, String idHash, ConsoleSession current, Optional<String> sealed) {
        Caller was = current.caller();
        HeldTokens held = openTokens(idHash, sealed);
        Optional<String> refreshToken = held.refreshToken();
        if (refreshToken.isEmpty()) {
            return end(id, was, "it holds no refresh token to re-validate with");
        }
        Refreshed fresh;
        try {
            fresh = revalidation.refresh(refreshToken.get(), was.tenantId());
        } catch (OidcLogin.RefreshRefused e) {
            return end(id, was, "the identity provider refused its refresh (" + e.getMessage() + ")");
        } catch (DomainException e) {
            store.checkAgain(idHash);
            throw e;
        }
        Caller now = fresh.caller();
        if (!now.sub().equals(was.sub())) {
            return end(id, was, "the refreshed token names another subject");
        }
        store.revalidated(idHash, now, fresh.refreshToken().isEmpty() && fresh.idToken().isEmpty() ? null
                : sealTokens(idHash, new HeldTokens(fresh.refreshToken().or(held::refreshToken),
                        fresh.idToken().or(held::idToken))));
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

    /** The provider's tokens a session holds; {@code toString} leaves them out. */
    private record HeldTokens(Optional<String> refreshToken, Optional<String> idToken) {
        @Override
        public String toString() {
            return "HeldTokens[****]";
        }
    }

    /** Both tokens, sealed for session {@code idHash} only; null when there is neither. */
    private String sealTokens(String idHash, HeldTokens tokens) {
        if (tokens.refreshToken().isEmpty() && tokens.idToken().isEmpty()) {
            return null;
        }
        // neither token has a newline (a JWT or an opaque URL-safe string): a newline separates them
        String plain = tokens.refreshToken().orElse("") + "\n" + tokens.idToken().orElse("");
        return seal.seal(tokensPurpose(idHash), plain.getBytes(StandardCharsets.UTF_8));
    }

    /** What {@link #sealTokens} sealed, or a refresh token alone as sealed before ID tokens were kept. */
    private HeldTokens openTokens(String idHash, Optional<String> sealed) {
        if (sealed.isEmpty()) {
            return new HeldTokens(Optional.empty(), Optional.empty());
        }
        Optional<String[]> both = seal.open(tokensPurpose(idHash), sealed.get())
                .map(b -> new String(b, StandardCharsets.UTF_8).split("\n", -1)).filter(f -> f.length == 2);
        if (both.isPresent()) {
            return new HeldTokens(Optional.of(both.get()[0]).filter(t -> !t.isEmpty()),
                    Optional.of(both.get()[1]).filter(t -> !t.isEmpty()));
        }
        return new HeldTokens(seal.open(legacyRefreshPurpose(idHash), sealed.get())
                .map(b -> new String(b, StandardCharsets.UTF_8)), Optional.empty());
    }

    /** Tokens open only for the session they were sealed for (a row copied onto another id does not). */
    private static String tokensPurpose(String idHash) {
        return "svc-console tokens v2 " + idHash;
    }

    /** A refresh token alone, as sessions opened before ID tokens were kept hold it. */
    private static String legacyRefreshPurpose(String idHash) {
        return "svc-console refresh token v1 " + idHash;
    }

    /** Points a platform_admin's session at another tenant (the caller checks who may). */
    public void switchTenant(String id, UUID tenant) {
        store.switchTenant(Digests.sha256Hex(id), tenant);
    }

    /**
     * Ends the session with this cookie value (on every replica: the row is gone); returns the ID token it held, the
     * hint that lets the identity provider end its own session too.
     */
    public Optional<String> close(String id) {
        String idHash = Digests.sha256Hex(id);
        return store.delete(idHash).flatMap(sealed -> openTokens(idHash, sealed).idToken());
    }
}
