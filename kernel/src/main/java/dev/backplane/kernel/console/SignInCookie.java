package dev.backplane.kernel.console;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * Sign-ins in flight, which live only in a cookie sealed with the console's key ({@link Seal}): starting a sign-in
 * writes nothing on the server, and a callback is accepted only with the cookie of the browser that started it, for
 * the state it was started with, before it expires.
 */
final class SignInCookie {

    /** How long a sign-in may take between leaving for the identity provider and coming back. */
    static final Duration LOGIN_TTL = Duration.ofMinutes(10);
    /** A longer return path is dropped for the default page: the sealed cookie must stay well under 4 KiB. */
    static final int MAX_RETURN_CHARS = 1024;
    private static final String LOGIN_PURPOSE = "svc-console sign-in v1";

    private final Seal seal;

    SignInCookie(Seal seal) {
        this.seal = seal;
    }

    /** A new sign-in; nothing is stored: {@link #seal} makes the cookie that carries it. */
    PendingLogin start(String returnTo) {
        String back = returnTo.length() <= MAX_RETURN_CHARS ? returnTo : "/ui/kb";
        return new PendingLogin(ConsoleSessions.randomToken(), ConsoleSessions.randomToken(),
                ConsoleSessions.randomToken(), back, Instant.now().plus(LOGIN_TTL).truncatedTo(ChronoUnit.SECONDS));
    }

    /** The cookie value of {@code login}: encrypted and authenticated, so the browser can neither read nor alter it. */
    String seal(PendingLogin login) {
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
    Optional<PendingLogin> take(String cookie, String state) {
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
}
