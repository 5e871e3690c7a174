package dev.backplane.plugins.openapi;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * An HTTPS server on loopback with a self-signed certificate made by the JDK's keytool (the kernel's
 * TlsFixture approach), answering every request with {@code {}}; it counts the requests that got through.
 */
final class SelfSignedHttps implements AutoCloseable {

    private static final char[] PASS = "changeit".toCharArray();

    private final HttpsServer server;
    private final AtomicInteger served = new AtomicInteger();

    private SelfSignedHttps(HttpsServer server) {
        this.server = server;
    }

    static SelfSignedHttps start(Path dir) throws Exception {
        Path ks = dir.resolve("server.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        run(List.of(keytool, "-genkeypair", "-alias", "svc", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=vendor.test", "-ext", "san=dns:vendor.test,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", ks.toString(), "-storepass", new String(PASS), "-keypass", new String(PASS)));
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(ks)) {
            store.load(in, PASS);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, PASS);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ssl));
        SelfSignedHttps fixture = new SelfSignedHttps(server);
        server.createContext("/", x -> {
            fixture.served.incrementAndGet();
            byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", "application/json");
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        server.start();
        return fixture;
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + out);
        }
    }

    int port() {
        return server.getAddress().getPort();
    }

    int served() {
        return served.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
