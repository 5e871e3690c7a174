package dev.backplane.kernel.testing;

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
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A real HTTPS server on loopback with a self-signed certificate that names only {@code svc.test}
 * (made with the JDK's keytool), answering {@code /version} and {@code /members} behind basic auth.
 *
 * @param server the running server
 * @param pem its certificate as PEM (it is its own CA)
 */
public record TlsFixture(HttpsServer server, String pem) implements AutoCloseable {

    public static final String CERT_NAME = "svc.test";
    private static final char[] PASS = "changeit".toCharArray();

    /**
     * An HTTPS server, not yet started, on a free loopback port with a fresh self-signed certificate (made
     * with the JDK's keytool, its key store at {@code keyStore}) for {@code name} with the subject alternative
     * names {@code san} (keytool's form: {@code dns:svc.test,ip:127.0.0.1}), and that certificate as PEM.
     *
     * @param server the server
     * @param pem its certificate (it is its own CA)
     */
    public record SelfSigned(HttpsServer server, String pem) {

        public static SelfSigned create(Path keyStore, String name, String san) throws Exception {
            String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
            run(List.of(keytool, "-genkeypair", "-alias", "svc", "-keyalg", "RSA", "-keysize", "2048", "-validity",
                    "2", "-dname", "CN=" + name, "-ext", "san=" + san, "-storetype", "PKCS12", "-keystore",
                    keyStore.toString(), "-storepass", new String(PASS), "-keypass", new String(PASS)));
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keyStore)) {
                store.load(in, PASS);
            }
            String pem = "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64,
                    "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(store.getCertificate("svc").getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, PASS);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(kmf.getKeyManagers(), null, null);
            HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(ssl));
            return new SelfSigned(server, pem);
        }
    }

    public static TlsFixture start(Path dir, String user, String password) throws Exception {
        SelfSigned tls = SelfSigned.create(dir.resolve("server.p12"), CERT_NAME, "dns:" + CERT_NAME);
        HttpsServer server = tls.server();
        String expected = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        server.createContext("/", x -> {
            boolean ok = expected.equals(x.getRequestHeaders().getFirst("Authorization"));
            String path = x.getRequestURI().getPath();
            byte[] body = (!ok ? "unauthorized" : path.equals("/version") ? "3.2.1" : path.equals("/members")
                    ? "node-a,node-b" : "not found").getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(!ok ? 401 : path.equals("/version") || path.equals("/members") ? 200 : 404, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        server.start();
        return new TlsFixture(server, tls.pem());
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + out);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
