package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.sun.net.httpserver.HttpsServer;
import dev.backplane.kernel.credentials.CloudSmStore;
import dev.backplane.kernel.egress.EgressProxy;
import dev.backplane.kernel.egress.GuardedSocketFactory;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.egress.TargetTls;
import dev.backplane.kernel.identity.JwksKeys;
import dev.backplane.kernel.plugins.KernelConnectorContext;
import dev.backplane.kernel.testing.TlsFixture;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tls.ca-bundle}: a server whose certificate comes from a private CA is refused by the kernel's outbound
 * clients with the JDK's roots alone and accepted once the bundle is configured — the identity provider's
 * discovery and JWKS fetches, the HTTP client lent to connectors (target TLS without a pin), Google Secret Manager —
 * while the JDK's roots stay trusted; a missing or certificate-less bundle stops the start naming the file.
 */
class OutboundTrustTest {

    @TempDir
    Path dir;
    private HttpsServer server;
    private Path bundle;
    private String base;
    private RSAKey key;

    @BeforeEach
    void privateCaServer() throws Exception {
        TlsFixture.SelfSigned tls = TlsFixture.SelfSigned.create(dir.resolve("idp.p12"), "idp.test",
                "dns:idp.test,ip:127.0.0.1");
        server = tls.server();
        base = "https://127.0.0.1:" + server.getAddress().getPort();
        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        String jwks = "{\"keys\": [" + key.toPublicJWK().toJSONString() + "]}";
        String discovery = "{\"issuer\": \"" + base + "\", \"jwks_uri\": \"" + base + "/jwks\"}";
        String access = "{\"payload\": {\"data\": \"" + Base64.getEncoder().encodeToString(
                "{\"password\":\"pw-gsm-1\"}".getBytes(StandardCharsets.UTF_8)) + "\"}}";
        server.createContext("/", x -> {
            String path = x.getRequestURI().getPath();
            String body = path.equals("/jwks") ? jwks : path.equals("/.well-known/openid-configuration") ? discovery
                    : path.endsWith(":access") ? access : "ok";
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        server.start();
        bundle = Files.writeString(dir.resolve("ca.pem"), tls.pem());
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private KernelConfig config(Optional<Path> caBundle) {
        return KernelConfig.load(Optional.empty(), caBundle.map(p -> Map.of("SVC_TLS_CA_BUNDLE", p.toString()))
                .orElse(Map.of()));
    }

    private static JWKSelector kid(String kid) {
        return new JWKSelector(new JWKMatcher.Builder().keyID(kid).build());
    }

    @Test
    void theIdentityProvidersDiscoveryAndKeysNeedTheBundle() throws Exception {
        JwksKeys without = new JwksKeys(base, Optional.empty(), Duration.ofMinutes(5),
                config(Optional.empty()).outboundTrust().sslContext());
        assertThat(catchThrowable(() -> without.get(kid("k1"), null))).as("discovery refused")
                .hasMessageContaining("cannot reach the identity provider's keys")
                .hasMessageContaining("PKIX path building failed");
        JwksKeys jwksOnly = new JwksKeys(base, Optional.of(base + "/jwks"), Duration.ofMinutes(5),
                config(Optional.empty()).outboundTrust().sslContext());
        assertThat(catchThrowable(() -> jwksOnly.get(kid("k1"), null))).as("the JWKS fetch refused")
                .hasStackTraceContaining("PKIX path building failed");

        OutboundTrust trusted = config(Optional.of(bundle)).outboundTrust();
        assertThat(new JwksKeys(base, Optional.empty(), Duration.ofMinutes(5), trusted.sslContext())
                .get(kid("k1"), null)).extracting(k -> k.getKeyID()).containsExactly("k1");
        assertThat(new JwksKeys(base, Optional.of(base + "/jwks"), Duration.ofMinutes(5), trusted.sslContext())
                .get(kid("k1"), null)).hasSize(1);
    }

    @Test
    void theClientLentToConnectorsTrustsTheBundleWhenTheTargetHasNoPin() throws Exception {
        HttpRequest get = HttpRequest.newBuilder(URI.create(base + "/version")).build();
        try (EgressProxy egress = new EgressProxy(new GuardedSocketFactory(new SsrfGuard(List.of("127.0.0.0/8"),
                InetAddress::getAllByName), 2000))) {
            HttpClient jdkRoots = KernelConnectorContext.httpClient(TargetTls.of("127.0.0.1", true, Optional.empty(),
                    Optional.empty(), config(Optional.empty()).outboundTrust().trustManager()), egress, Duration.ofSeconds(5));
            assertThat(catchThrowable(() -> jdkRoots.send(get, HttpResponse.BodyHandlers.ofString())))
                    .isInstanceOf(SSLHandshakeException.class);

            HttpClient withBundle = KernelConnectorContext.httpClient(TargetTls.of("127.0.0.1", true, Optional.empty(),
                    Optional.empty(), config(Optional.of(bundle)).outboundTrust().trustManager()), egress,
                    Duration.ofSeconds(5));
            HttpResponse<String> ok = withBundle.send(get, HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("ok");
        }
    }

    @Test
    void secretManagerTrustsTheBundle() {
        CloudSmStore without = new CloudSmStore(URI.create(base), () -> "ya29.t", Duration.ofSeconds(3),
                config(Optional.empty()).outboundTrust().sslContext());
        assertThat(catchThrowable(() -> without.read("cloudsm:acme/web"))).hasMessageContaining("SSLHandshakeException");
        CloudSmStore with = new CloudSmStore(URI.create(base), () -> "ya29.t", Duration.ofSeconds(3),
                config(Optional.of(bundle)).outboundTrust().sslContext());
        assertThat(with.read("cloudsm:acme/web")).containsEntry("password", "pw-gsm-1");
    }

    @Test
    void theBundleAddsToTheJdksRootsAndABadFileStopsTheStart() throws Exception {
        int jdk = OutboundTrust.jdkDefault().trustManager().getAcceptedIssuers().length;
        assertThat(jdk).as("the JDK ships roots").isGreaterThan(10);
        assertThat(config(Optional.of(bundle)).outboundTrust().trustManager().getAcceptedIssuers())
                .as("the JDK's roots and the bundle's CA").hasSize(jdk + 1);

        Path absent = dir.resolve("absent.pem");
        assertThat(catchThrowableOfType(KernelConfig.ConfigException.class, () -> config(Optional.of(absent))))
                .hasMessageContaining("tls.ca-bundle").hasMessageContaining(absent.toString());
        Path empty = Files.writeString(dir.resolve("empty.pem"), "# no certificate here\n");
        assertThat(catchThrowableOfType(KernelConfig.ConfigException.class, () -> config(Optional.of(empty))))
                .hasMessageContaining("tls.ca-bundle").hasMessageContaining(empty.toString());
    }
}
