package dev.backplane.kernel.identity;

import static dev.backplane.kernel.testing.TestIssuer.AUDIENCE;
import static dev.backplane.kernel.testing.TestIssuer.ISSUER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.backplane.kernel.testing.TestIssuer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.Test;

/** JWT edge cases against a local key pair. */
class TokenVerifierTest {

    private static final List<String> ALGS = List.of("RS256", "ES256");
    private final RSAKey key = TestIssuer.newKey();
    private final TokenVerifier verifier = new TokenVerifier(ISSUER, AUDIENCE,
            new ImmutableJWKSet<SecurityContext>(new JWKSet(key.toPublicJWK())), ALGS, Duration.ofSeconds(30));

    private String token(java.util.function.Consumer<JWTClaimsSet.Builder> c) {
        return TestIssuer.sign(key, TestIssuer.claims(c));
    }

    @Test
    void acceptsAValidToken() {
        JWTClaimsSet claims = verifier.verify(token(c -> c.subject("alice")));
        assertThat(claims.getSubject()).isEqualTo("alice");
    }

    @Test
    void refusesAnExpiredToken() {
        String t = token(c -> c.expirationTime(Date.from(Instant.now().minusSeconds(120))));
        assertThatThrownBy(() -> verifier.verify(t)).isInstanceOf(TokenVerifier.InvalidTokenException.class)
                .hasMessageContaining("expired");
    }

    @Test
    void toleratesSmallClockSkewOnExpiry() {
        String t = token(c -> c.expirationTime(Date.from(Instant.now().minusSeconds(10))));
        assertThat(verifier.verify(t).getSubject()).isNotBlank();
    }

    @Test
    void refusesATokenNotYetValid() {
        String t = token(c -> c.notBeforeTime(Date.from(Instant.now().plusSeconds(600))));
        assertThatThrownBy(() -> verifier.verify(t)).isInstanceOf(TokenVerifier.InvalidTokenException.class);
    }

    @Test
    void refusesAnotherAudience() {
        String t = token(c -> c.audience("some-other-api"));
        assertThatThrownBy(() -> verifier.verify(t)).hasMessageContaining("audience");
    }

    @Test
    void refusesAnotherIssuer() {
        String t = token(c -> c.issuer("https://evil.test/realms/svc"));
        assertThatThrownBy(() -> verifier.verify(t)).hasMessageContaining("issuer");
    }

    @Test
    void refusesATamperedPayload() {
        String t = token(c -> c.claim("tenant_role", "operator"));
        String[] parts = t.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("operator", "tenant_admin");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertThatThrownBy(() -> verifier.verify(forged)).hasMessageContaining("signature");
    }

    @Test
    void refusesATamperedSignature() {
        String t = token(c -> c.subject("alice"));
        char last = t.charAt(t.length() - 5);
        String tampered = t.substring(0, t.length() - 5) + (last == 'A' ? 'B' : 'A') + t.substring(t.length() - 4);
        assertThatThrownBy(() -> verifier.verify(tampered)).isInstanceOf(TokenVerifier.InvalidTokenException.class);
    }

    @Test
    void refusesAlgNone() {
        String unsigned = new PlainJWT(TestIssuer.claims(c -> c.subject("alice"))).serialize();
        assertThatThrownBy(() -> verifier.verify(unsigned)).isInstanceOf(TokenVerifier.InvalidTokenException.class);
        // the same with a forged header that names the signing key
        String header = Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("{\"alg\":\"none\",\"kid\":\"" + key.getKeyID() + "\"}").getBytes(StandardCharsets.UTF_8));
        String body = unsigned.split("\\.")[1];
        assertThatThrownBy(() -> verifier.verify(header + "." + body + ".")).isInstanceOf(
                TokenVerifier.InvalidTokenException.class);
    }

    @Test
    void refusesHmacSignedWithThePublicKey() throws Exception {
        // algorithm confusion: HS256 keyed with the RSA public key's bytes
        byte[] secret = key.toPublicJWK().toRSAPublicKey().getEncoded();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(key.getKeyID()).build(),
                TestIssuer.claims(c -> c.subject("mallory")));
        jwt.sign(new MACSigner(secret));
        assertThatThrownBy(() -> verifier.verify(jwt.serialize())).isInstanceOf(TokenVerifier.InvalidTokenException.class);
    }

    @Test
    void refusesATokenSignedByAnUnknownKey() {
        String t = TestIssuer.sign(TestIssuer.newKey(), TestIssuer.claims(c -> c.subject("alice")));
        assertThatThrownBy(() -> verifier.verify(t)).isInstanceOf(TokenVerifier.InvalidTokenException.class);
    }

    @Test
    void refusesGarbage() {
        assertThatThrownBy(() -> verifier.verify("not.a.jwt")).isInstanceOf(TokenVerifier.InvalidTokenException.class);
        assertThatThrownBy(() -> verifier.verify("")).isInstanceOf(TokenVerifier.InvalidTokenException.class);
    }

    @Test
    void refusesATokenWithoutSubject() {
        String t = TestIssuer.sign(key, new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE)
                .issueTime(new Date()).expirationTime(Date.from(Instant.now().plusSeconds(60))).build());
        assertThatThrownBy(() -> verifier.verify(t)).isInstanceOf(TokenVerifier.InvalidTokenException.class);
    }

    @Test
    void hmacAndNoneCannotBeConfiguredAsAcceptedAlgorithms() {
        var keys = new ImmutableJWKSet<SecurityContext>(new JWKSet(key.toPublicJWK()));
        assertThatThrownBy(() -> new TokenVerifier(ISSUER, AUDIENCE, keys, List.of("HS256"), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenVerifier(ISSUER, AUDIENCE, keys, List.of("none"), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
