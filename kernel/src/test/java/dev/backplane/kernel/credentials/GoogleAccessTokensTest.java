package dev.backplane.kernel.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.plugin.api.ConnectorException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cloudsm backend's tokens come from google-auth-library: a service-account key file whose token endpoint is a
 * loopback OAuth server issuing short-lived tokens (checking the signed JWT assertion), so a token about to expire is
 * replaced before a Secret Manager request, a long-lived one is reused, and a refused grant is a clear store error.
 */
class GoogleAccessTokensTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shortLivedTokensAreRefreshedAndLongLivedOnesReused(@TempDir Path dir) throws Exception {
        KeyPair keys = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        AtomicInteger issued = new AtomicInteger();
        int[] lifetime = {30}; // seconds: inside the library's refresh margin, so every use refreshes
        List<String> assertions = new CopyOnWriteArrayList<>();
        List<String> bearers = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/token", x -> {
            Map<String, String> form = LoopbackHttp.form(new String(x.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8));
            String out;
            int status = 200;
            try {
                SignedJWT jwt = SignedJWT.parse(form.get("assertion"));
                boolean ok = "urn:ietf:params:oauth:grant-type:jwt-bearer".equals(form.get("grant_type"))
                        && jwt.verify(new RSASSAVerifier((RSAPublicKey) keys.getPublic()))
                        && jwt.getJWTClaimsSet().getStringClaim("scope").contains("cloud-platform")
                        && "svc-sm@acme-prod.iam.gserviceaccount.com".equals(jwt.getJWTClaimsSet().getIssuer());
                assertions.add(ok ? "verified" : "bad");
                out = ok ? JSON.writeValueAsString(Map.of("access_token", "ya29.short-" + issued.incrementAndGet(),
                        "expires_in", lifetime[0], "token_type", "Bearer")) : "{\"error\": \"invalid_grant\"}";
                status = ok ? 200 : 400;
            } catch (Exception e) {
                out = "{\"error\": \"invalid_request\"}";
                status = 400;
            }
            answer(x, status, out);
        });
        server.createContext("/v1/", x -> {
            bearers.add(x.getRequestHeaders().getFirst("Authorization"));
            answer(x, 200, "{\"payload\": {\"data\": \"" + Base64.getEncoder().encodeToString(
                    "{\"password\": \"pw-1\"}".getBytes(StandardCharsets.UTF_8)) + "\"}}");
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            Path keyFile = dir.resolve("sa.json");
            Files.writeString(keyFile, JSON.writeValueAsString(Map.of("type", "service_account",
                    "project_id", "acme-prod", "private_key_id", "k1", "private_key", pem(keys),
                    "client_email", "svc-sm@acme-prod.iam.gserviceaccount.com", "client_id", "1",
                    "token_uri", base + "/token")));
            GoogleAccessTokens tokens = GoogleAccessTokens.load(Optional.of(keyFile));
            CloudSmStore store = new CloudSmStore(URI.create(base), tokens, Duration.ofSeconds(5));
            assertThat(store.read("cloudsm:acme-prod/web")).containsEntry("password", "pw-1");
            assertThat(store.read("cloudsm:acme-prod/web")).containsEntry("password", "pw-1");
            assertThat(bearers).as("a token about to expire is replaced before the next request")
                    .containsExactly("Bearer ya29.short-1", "Bearer ya29.short-2");
            assertThat(assertions).containsOnly("verified");

            lifetime[0] = 3600;
            GoogleAccessTokens longLived = GoogleAccessTokens.load(Optional.of(keyFile));
            CloudSmStore again = new CloudSmStore(URI.create(base), longLived, Duration.ofSeconds(5));
            again.read("cloudsm:acme-prod/web");
            again.read("cloudsm:acme-prod/web");
            assertThat(bearers.subList(2, 4)).as("a fresh token is reused").containsExactly("Bearer ya29.short-3",
                    "Bearer ya29.short-3");
            assertThat(tokens.toString()).doesNotContain("ya29");

            // a key the token endpoint does not accept: a store error naming the cause's kind, no token, no key
            KeyPair other = KeyPairGenerator.getInstance("RSA").generateKeyPair();
            Path wrong = dir.resolve("wrong.json");
            Files.writeString(wrong, Files.readString(keyFile).replace(JSON.writeValueAsString(pem(keys)).replaceAll(
                    "^\"|\"$", ""), JSON.writeValueAsString(pem(other)).replaceAll("^\"|\"$", "")));
            CloudSmStore refused = new CloudSmStore(URI.create(base), GoogleAccessTokens.load(Optional.of(wrong)),
                    Duration.ofSeconds(5));
            assertThatThrownBy(() -> refused.read("cloudsm:acme-prod/web")).isInstanceOf(ConnectorException.class)
                    .hasMessageContaining("could not obtain an access token").hasMessageNotContaining("PRIVATE KEY");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anUnreadableCredentialsFileFailsTheStartClearly(@TempDir Path dir) throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"type\": \"nonsense\"}");
        assertThatThrownBy(() -> GoogleAccessTokens.load(Optional.of(bad))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("credentials.cloudsm.credentials-file " + bad);
        assertThatThrownBy(() -> GoogleAccessTokens.load(Optional.of(dir.resolve("none.json"))))
                .hasMessageContaining("NoSuchFileException");
    }

    private static String pem(KeyPair keys) {
        return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(keys.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
    }

    private static void answer(com.sun.net.httpserver.HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(status, bytes.length);
        x.getResponseBody().write(bytes);
        x.close();
    }
}
