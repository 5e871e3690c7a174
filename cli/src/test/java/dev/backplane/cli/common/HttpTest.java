package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Http} names the CLI in every request, whoever built the request; it sets up TLS only for an
 * {@code https://} URL, and then with the context it was given (or the JDK's default trust).
 */
class HttpTest {

    private HttpServer server;
    private final List<String> agents = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            agents.add(String.join("|", exchange.getRequestHeaders().getOrDefault("User-Agent", List.of())));
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("{}".getBytes());
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void everyRequestCarriesTheCliUserAgentOnce() {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/x");
        try (Http http = new Http(null, new PrintWriter(new StringWriter()), false)) {
            http.get(uri);
            http.postForm(uri, java.util.Map.of("a", "b"));
            http.send(HttpRequest.newBuilder(uri).header("User-Agent", "curl/8").GET().build());
            http.stream(HttpRequest.newBuilder(uri).GET().build(), line -> { });
        }

        assertThat(agents).hasSize(4).allSatisfy(a -> assertThat(a).isEqualTo(BuildInfo.userAgent()));
        assertThat(BuildInfo.userAgent()).matches("svc-cli/\\S+").doesNotEndWith("/unknown");
    }

    @Test
    void plainHttpRequestsNeverTouchTheTlsContext() {
        java.util.concurrent.atomic.AtomicInteger touched = new java.util.concurrent.atomic.AtomicInteger();
        javax.net.ssl.SSLContext counting = RefusedTls.context(touched::incrementAndGet);
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/x");
        try (Http http = new Http(counting, new PrintWriter(new StringWriter()), false)) {
            assertThat(http.get(uri).ok()).isTrue();
            http.stream(HttpRequest.newBuilder(uri).GET().build(), line -> { });
        }
        assertThat(touched).as("calls into the TLS context").hasValue(0);
    }

    @Test
    void httpsRequestsUseTheGivenContextAndOtherwiseTheJdksTrust(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        char[] pass = "changeit".toCharArray();
        java.nio.file.Path store = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "keytool")
                .toString(), "-genkeypair", "-alias", "svc", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=svc.test", "-ext", "san=ip:127.0.0.1", "-storetype", "PKCS12", "-keystore",
                store.toString(), "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        String made = new String(keytool.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as(made).isZero();
        java.security.KeyStore keys = java.security.KeyStore.getInstance("PKCS12");
        try (var in = java.nio.file.Files.newInputStream(store)) {
            keys.load(in, pass);
        }
        javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance(
                javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, pass);
        javax.net.ssl.SSLContext serverTls = javax.net.ssl.SSLContext.getInstance("TLS");
        serverTls.init(kmf.getKeyManagers(), null, null);
        com.sun.net.httpserver.HttpsServer https = com.sun.net.httpserver.HttpsServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        https.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(serverTls));
        https.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("{}".getBytes());
            exchange.close();
        });
        https.start();
        try {
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(keys);
            javax.net.ssl.SSLContext trusting = javax.net.ssl.SSLContext.getInstance("TLS");
            trusting.init(null, tmf.getTrustManagers(), null);
            URI uri = URI.create("https://127.0.0.1:" + https.getAddress().getPort() + "/x");
            URI plain = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/x");
            try (Http http = new Http(trusting, new PrintWriter(new StringWriter()), false)) {
                assertThat(http.get(plain).ok()).isTrue();
                assertThat(http.get(uri).json().isObject()).isTrue();
            }
            try (Http http = new Http(null, new PrintWriter(new StringWriter()), false)) {
                assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(CliException.class, () -> http.get(uri)))
                        .satisfies(e -> assertThat(e.exitCode()).isEqualTo(ExitCodes.UNREACHABLE))
                        .hasMessageContaining("TLS with https://127.0.0.1:" + https.getAddress().getPort() + " failed");
            }
        } finally {
            https.stop(0);
        }
    }
}
