package dev.backplane.kernel.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.testing.TestIssuer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
    void anUnreachableKeySetIsAnInvalidTokenNotACrashAndCountsAsAFailedFetch() {
        JwksKeys keys = new JwksKeys(TestIssuer.ISSUER, Optional.of("http://127.0.0.1:1/jwks"), Duration.ofHours(1));
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        keys.meterInto(metrics);
        TokenVerifier verifier = new TokenVerifier(TestIssuer.ISSUER, TestIssuer.AUDIENCE, keys, List.of("RS256"),
                Duration.ofSeconds(5));
        String token = TestIssuer.sign(TestIssuer.newKey(), TestIssuer.claims(c -> c.subject("x")));
        assertThatThrownBy(() -> verifier.verify(token)).isInstanceOf(TokenVerifier.InvalidTokenException.class);
        assertThat(failures(metrics, "jwks")).isEqualTo(1);
        assertThat(failures(metrics, "discovery")).as("the JWKS URL is configured: no discovery").isZero();
    }

    @Test
    void anIssuerWithoutADiscoveryDocumentCountsAsAFailedDiscovery() {
        JwksKeys keys = new JwksKeys("http://127.0.0.1:1/realms/gone", Optional.empty(), Duration.ofHours(1));
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        keys.meterInto(metrics);
        TokenVerifier verifier = new TokenVerifier("http://127.0.0.1:1/realms/gone", TestIssuer.AUDIENCE, keys,
                List.of("RS256"), Duration.ofSeconds(5));
        String token = TestIssuer.sign(TestIssuer.newKey(), TestIssuer.claims(c -> c.issuer(
                "http://127.0.0.1:1/realms/gone").subject("x")));
        assertThatThrownBy(() -> verifier.verify(token)).isInstanceOf(TokenVerifier.InvalidTokenException.class);
        assertThatThrownBy(() -> verifier.verify(token)).isInstanceOf(TokenVerifier.InvalidTokenException.class);
        assertThat(failures(metrics, "discovery")).as("each attempt that could not read the document").isEqualTo(2);
    }

    @Test
    void aHealthyIssuerCountsNoFailure() {
        try (TestIssuer issuer = new TestIssuer()) {
            JwksKeys keys = new JwksKeys(TestIssuer.ISSUER, Optional.of(issuer.jwksUrl()), Duration.ofHours(1));
            SimpleMeterRegistry metrics = new SimpleMeterRegistry();
            keys.meterInto(metrics);
            new TokenVerifier(TestIssuer.ISSUER, TestIssuer.AUDIENCE, keys, List.of("RS256"), Duration.ofSeconds(5))
                    .verify(issuer.token(c -> c.subject("a")));
            assertThat(failures(metrics, "jwks") + failures(metrics, "discovery")).isZero();
        }
    }

    private static double failures(SimpleMeterRegistry metrics, String what) {
        return metrics.get("svc.identity.key.fetch.failures").tag("what", what).counter().count();
    }
}
