package dev.backplane.kernel.identity;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.text.ParseException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Verifies bearer JWTs: signature with a key from the issuer's JWKS (algorithm from an allow-list,
 * so {@code alg: none} and HMAC confusion are refused), issuer, audience, expiry and not-before with
 * a small clock skew. One instance per accepted audience.
 */
public final class TokenVerifier {

    /** How long a verified token is remembered (see {@link #stillValid}). */
    static final Duration CACHE_TTL = Duration.ofSeconds(60);

    private final DefaultJWTProcessor<SecurityContext> processor;
    private final Cache<String, JWTClaimsSet> verified = Caffeine.newBuilder()
            .maximumSize(10_000).expireAfterWrite(CACHE_TTL).build();
    private final long skewMillis;

    /**
     * @param issuer the exact {@code iss} to accept
     * @param audience an {@code aud} entry the token must carry
     * @param keys signing keys (cached and refetched on an unknown kid by the source)
     * @param algorithms accepted JWS algorithms
     * @param clockSkew tolerated skew for exp, nbf
     */
    public TokenVerifier(String issuer, String audience, JWKSource<SecurityContext> keys, List<String> algorithms,
                         Duration clockSkew) {
        requireNonNull(issuer, "issuer is null");
        requireNonNull(audience, "audience is null");
        requireNonNull(keys, "keys is null");
        Set<JWSAlgorithm> allowed = new HashSet<>();
        for (String name : algorithms) {
            JWSAlgorithm alg = JWSAlgorithm.parse(name);
            if (JWSAlgorithm.Family.HMAC_SHA.contains(alg) || "none".equalsIgnoreCase(name)) {
                throw new IllegalArgumentException("algorithm " + name + " is not allowed for bearer tokens");
            }
            allowed.add(alg);
        }
        processor = new DefaultJWTProcessor<>();
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(allowed, keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
                audience,
                new JWTClaimsSet.Builder().issuer(issuer).build(),
                Set.of("sub", "exp", "iat"));
        claims.setMaxClockSkew((int) clockSkew.toSeconds());
        skewMillis = clockSkew.toMillis();
        processor.setJWTClaimsSetVerifier(claims);
    }

    /**
     * Returns the verified claims.
     *
     * @throws InvalidTokenException with a description safe to show the caller
     */
    public JWTClaimsSet verify(String token) {
        JWTClaimsSet cached = verified.getIfPresent(token);
        if (cached != null) {
            return stillValid(token, cached);
        }
        try {
            JWTClaimsSet claims = processor.process(token, null);
            verified.put(token, claims);
            return claims;
        } catch (ParseException e) {
            throw new InvalidTokenException("token is not a well-formed JWT");
        } catch (BadJOSEException e) {
            throw new InvalidTokenException(describe(e));
        } catch (JOSEException e) {
            throw new InvalidTokenException("token could not be verified: " + e.getMessage());
        }
    }

    /**
     * A token verified moments ago is the same bytes with the same signature: only time can have
     * changed its verdict, so a cache hit re-checks expiry and not-before (with the skew). Entries
     * live {@link #CACHE_TTL} at most, which bounds how long a token signed with a key since removed
     * from the JWKS is still accepted.
     */
    private JWTClaimsSet stillValid(String token, JWTClaimsSet claims) {
        long now = System.currentTimeMillis();
        if (claims.getExpirationTime() != null && now > claims.getExpirationTime().getTime() + skewMillis) {
            verified.invalidate(token);
            throw new InvalidTokenException("token has expired");
        }
        if (claims.getNotBeforeTime() != null && now < claims.getNotBeforeTime().getTime() - skewMillis) {
            verified.invalidate(token);
            throw new InvalidTokenException("token is not valid yet");
        }
        return claims;
    }

    private static String describe(BadJOSEException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("Expired JWT")) {
            return "token has expired";
        }
        if (m.contains("aud claim") || m.contains("audience")) {
            return "token is not issued for this audience";
        }
        if (m.contains("missing required claims")) {
            return "token lacks required claims (sub, exp, iat)";
        }
        if (m.contains("iss claim")) {
            return "token is from an issuer this backplane does not trust";
        }
        if (m.contains("Unsecured") || m.contains("plain")) {
            return "unsigned tokens are refused";
        }
        if (m.contains("JWS algorithm") || m.contains("key candidates") || m.contains("Signed JWT rejected")) {
            return "token signature is invalid or made with an unaccepted key or algorithm";
        }
        return "token rejected: " + m;
    }

    /** A token failed verification; the message is safe to return to the caller. */
    public static final class InvalidTokenException extends RuntimeException {
        public InvalidTokenException(String message) {
            super(message);
        }
    }
}
