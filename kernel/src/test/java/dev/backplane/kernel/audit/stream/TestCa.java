package dev.backplane.kernel.audit.stream;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test CA and a server certificate it signed, made with the JDK's keytool in {@code dir}, written as the PEM
 * files a syslog receiver loads: {@code ca.pem}, {@code server.pem} and {@code server.key} (PKCS#8).
 *
 * @param ca the CA certificate file
 * @param cert the server certificate file
 * @param key the server's private key file
 */
record TestCa(Path ca, Path cert, Path key) {

    private static final String PASS = "changeit";

    /** A fresh CA (named {@code caName}) and a server certificate for the subject alternative names {@code san}. */
    static TestCa create(Path dir, String caName, String san) throws Exception {
        Files.createDirectories(dir);
        Path caStore = dir.resolve("ca.p12");
        Path serverStore = dir.resolve("server.p12");
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname",
                "CN=" + caName, "-ext", "bc:c", "-storetype", "PKCS12", "-keystore", caStore.toString());
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname",
                "CN=syslog", "-storetype", "PKCS12", "-keystore", serverStore.toString());
        keytool("-certreq", "-alias", "server", "-keystore", serverStore.toString(), "-file", dir.resolve("server.csr")
                .toString());
        Path cert = dir.resolve("server.pem");
        keytool("-gencert", "-alias", "ca", "-keystore", caStore.toString(), "-infile", dir.resolve("server.csr")
                .toString(), "-outfile", cert.toString(), "-rfc", "-validity", "2", "-ext", "san=" + san,
                "-ext", "eku=serverAuth");
        KeyStore ca = load(caStore);
        Path caPem = dir.resolve("ca.pem");
        Files.writeString(caPem, pem("CERTIFICATE", ca.getCertificate("ca").getEncoded()));
        KeyStore server = load(serverStore);
        Path key = dir.resolve("server.key");
        Files.writeString(key, pem("PRIVATE KEY", server.getKey("server", PASS.toCharArray()).getEncoded()));
        return new TestCa(caPem, cert, key);
    }

    /** A server-side TLS context presenting the server certificate (for a receiver written in the test). */
    javax.net.ssl.SSLContext serverContext() throws Exception {
        javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance(
                javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
        KeyStore keys = load(cert.resolveSibling("server.p12"));
        java.security.cert.CertificateFactory x509 = java.security.cert.CertificateFactory.getInstance("X.509");
        java.security.cert.Certificate[] chain = new java.security.cert.Certificate[2];
        try (InputStream leaf = Files.newInputStream(cert); InputStream root = Files.newInputStream(ca)) {
            chain[0] = x509.generateCertificate(leaf);
            chain[1] = x509.generateCertificate(root);
        }
        KeyStore signed = KeyStore.getInstance("PKCS12");
        signed.load(null, null);
        signed.setKeyEntry("server", keys.getKey("server", PASS.toCharArray()), PASS.toCharArray(), chain);
        kmf.init(signed, PASS.toCharArray());
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        return context;
    }

    private static KeyStore load(Path file) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASS.toCharArray());
        }
        return store;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(keytool));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storepass", PASS, "-noprompt"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed: " + out);
        }
    }
}
