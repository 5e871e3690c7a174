package dev.backplane.kernel.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.testing.TestIssuer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Signing keys fetched over a real loopback socket: caching and rotation. */
class JwksKeysTest {

    @Test
    void cachesKeysAndRefetchesOnceForAnUnknownKid() {
        try (TestIssuer issuer = new TestIssuer()) {
            JwksKeys keys = new JwksKeys(TestIssuer.ISSUER, Optional.of(issuer.jwksUrl()), Duration.ofHours(1));
            TokenVerifier verifier = new TokenVerifier(TestIssuer.ISSUER, TestIssuer.AUDIENCE, keys, List.of("RS256"),
                    Duration.ofSeconds(5));
            verifier.verify(issuer.token(c -> c.subject("a")));
            verifier.verify(issuer.token(c -> c.subject("b")));
            assertThat(issuer.jwksFetches()).as("second token served from the cache").isEqualTo(1);

            issuer.rotate();
            assertThat(verifier.verify(issuer.token(c -> c.subject("c"))).getSubject()).isEqualTo("c");
            assertThat(issuer.jwksFetches()).as("an unknown kid refetched the key set").isEqualTo(2);
        }
    }

    @Test
    void anUnreachableKeySetIsAnInvalidTokenNotACrash() {
        JwksKeys keys = new JwksKeys(TestIssuer.ISSUER, Optional.of("http://127.0.0.1:1/jwks"), Duration.ofHours(1));
        TokenVerifier verifier = new TokenVerifier(TestIssuer.ISSUER, TestIssuer.AUDIENCE, keys, List.of("RS256"),
                Duration.ofSeconds(5));
        String token = TestIssuer.sign(TestIssuer.newKey(), TestIssuer.claims(c -> c.subject("x")));
        assertThatThrownBy(() -> verifier.verify(token)).isInstanceOf(TokenVerifier.InvalidTokenException.class);
    }
}
