package dev.backplane.kernel.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A local token issuer for tests: an RSA key pair whose public half is served as a JWKS over a real
 * loopback HTTP socket, and a minting method. The served key set can be swapped (key rotation).
 */
public final class TestIssuer implements AutoCloseable {

    public static final String ISSUER = "https://issuer.test/realms/svc";
    public static final String AUDIENCE = "svc-backplane";
    public static final String MCP_AUDIENCE = "https://backplane.test/mcp";

    private final HttpServer server;
    private final AtomicInteger jwksFetches = new AtomicInteger();
    private volatile RSAKey key;
    private volatile JWKSet served;

    public TestIssuer() {
        key = newKey();
        served = new JWKSet(key.toPublicJWK());
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/jwks", exchange -> {
            jwksFetches.incrementAndGet();
            byte[] body = served.toString(true).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    public static RSAKey newKey() {
        try {
            return new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    public String jwksUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks";
    }

    public int jwksFetches() {
        return jwksFetches.get();
    }

    /** Signs with a new key and serves only that key from now on. */
    public void rotate() {
        key = newKey();
        served = new JWKSet(key.toPublicJWK());
    }

    public RSAKey key() {
        return key;
    }

    /** A valid token for the backplane audience with the given tenant claims. */
    public String token(String sub, UUID tenantId, String role) {
        return token(c -> c.subject(sub).claim("tenant_id", tenantId.toString()).claim("tenant_role", role));
    }

    /** A tenant_admin token of {@code tenantId} for subject {@code admin-<tenantId>}. */
    public String tenantAdmin(UUID tenantId) {
        return token("admin-" + tenantId, tenantId, "tenant_admin");
    }

    /** An operator token of {@code tenantId} for subject {@code op-<tenantId>}. */
    public String operator(UUID tenantId) {
        return token("op-" + tenantId, tenantId, "operator");
    }

    public String platformAdminToken(String sub, UUID homeTenant) {
        return token(c -> c.subject(sub).claim("tenant_id", homeTenant.toString()).claim("tenant_role", "operator")
                .claim("platform_admin", true));
    }

    /** A token with defaults (issuer, audience, 5 minute lifetime) that {@code customizer} may override. */
    public String token(Consumer<JWTClaimsSet.Builder> customizer) {
        return sign(key, claims(customizer));
    }

    public static JWTClaimsSet claims(Consumer<JWTClaimsSet.Builder> customizer) {
        Instant now = Instant.now();
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject("user-" + UUID.randomUUID())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofMinutes(5))))
                .claim("azp", "svc-cli");
        customizer.accept(b);
        return b.build();
    }

    public static String sign(RSAKey key, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                    .type(JOSEObjectType.JWT).build(), claims);
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Settings that make a kernel trust this issuer. */
    public Map<String, String> kernelSettings() {
        // no access log: a line a request would bury the test output (JsonLogsIT turns it on and checks it)
        return Map.of("SVC_IDENTITY_ISSUER", ISSUER, "SVC_IDENTITY_JWKS_URL", jwksUrl(),
                "SVC_IDENTITY_AUDIENCE", AUDIENCE, "SVC_IDENTITY_MCP_AUDIENCE", MCP_AUDIENCE, "SVC_LOG_ACCESS", "false");
    }

    /** A token of the MCP public client (a user's agent session) for the MCP resource, with its scope. */
    public String mcpToken(String sub, UUID tenantId, String role) {
        return token(c -> c.subject(sub).audience(MCP_AUDIENCE).claim("azp", "svc-mcp").claim("scope", "openid svc:mcp")
                .claim("tenant_id", tenantId.toString()).claim("tenant_role", role));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
