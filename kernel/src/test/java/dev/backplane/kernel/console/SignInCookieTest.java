package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class SignInCookieTest {

    final Seal seal = new Seal(SealTest.KEY);
    final SignInCookie cookies = new SignInCookie(seal);

    @Test
    void aSignInComesBackOnlyForItsState() {
        PendingLogin login = cookies.start("/ui/connectors?q=x");
        assertThat(login.state()).isNotEqualTo(login.codeVerifier()).isNotEqualTo(login.nonce());
        assertThat(login.expiresAt()).isBetween(Instant.now().plus(SignInCookie.LOGIN_TTL).minusSeconds(2),
                Instant.now().plus(SignInCookie.LOGIN_TTL));
        String cookie = cookies.seal(login);
        assertThat(cookie).doesNotContain(login.state()).doesNotContain(login.codeVerifier());

        assertThat(cookies.take(cookie, login.state())).hasValue(login);
        assertThat(cookies.take(cookie, cookies.start("/ui/kb").state())).as("another sign-in's state").isEmpty();
        assertThat(cookies.take(cookie, "")).as("no state").isEmpty();
        assertThat(cookies.take(cookie + "x", login.state())).as("altered cookie").isEmpty();
        assertThat(new SignInCookie(new Seal(SealTest.OTHER_KEY)).take(cookie, login.state()))
                .as("another console's key").isEmpty();
    }

    @Test
    void anExpiredSignInIsRefused() {
        PendingLogin late = new PendingLogin("s", "v", "n", "/ui/kb",
                Instant.now().minusSeconds(1).truncatedTo(ChronoUnit.SECONDS));
        assertThat(cookies.take(cookies.seal(late), "s")).isEmpty();
        PendingLogin inTime = new PendingLogin("s", "v", "n", "/ui/kb",
                Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.SECONDS));
        assertThat(cookies.take(cookies.seal(inTime), "s")).hasValue(inTime);
    }

    @Test
    void aValueSealedForAnotherPurposeIsNoSignIn() {
        String plain = String.join("\n", String.valueOf(Instant.now().plusSeconds(60).getEpochSecond()), "s", "v",
                "n", "/ui/kb");
        String forged = seal.seal("svc-console refresh token v1 x", plain.getBytes(StandardCharsets.UTF_8));
        assertThat(cookies.take(forged, "s")).isEmpty();
    }

    @Test
    void aTooLongReturnPathFallsBackToTheKb() {
        String longest = "/ui/kb?q=" + "a".repeat(SignInCookie.MAX_RETURN_CHARS - 9);
        assertThat(cookies.start(longest).returnTo()).isEqualTo(longest);
        assertThat(cookies.start(longest + "a").returnTo()).isEqualTo("/ui/kb");
        assertThat(cookies.seal(cookies.start(longest)).length()).isLessThan(2048);
    }

    @Test
    void toStringShowsOnlyTheReturnPath() {
        assertThat(cookies.start("/ui/kb").toString()).isEqualTo("PendingLogin[returnTo=/ui/kb]");
    }
}
