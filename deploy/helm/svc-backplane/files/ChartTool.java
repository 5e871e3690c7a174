import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The chart's helper, run by the kernel image's own java (the image has no shell, curl or javac; the chart ships
 * this class compiled, in a ConfigMap). Modes:
 * <ul>
 * <li>{@code plugins <bundled-dir> <extra-dir> <out-dir> <jar>=<sha256>...}: copies the bundled plugin directory
 * (jars, SHA256SUMS, catalog) into out-dir, then each listed extra jar, checking its SHA-256 against the one given
 * and appending it to SHA256SUMS. A listed jar that is missing or differs: exit 1, naming it.</li>
 * <li>{@code probe <ready-url> <issuer>}: GET ready-url must answer 200; GET
 * {@code <issuer>/.well-known/openid-configuration} must answer 200 with {@code "issuer"} equal to issuer. The JDK's
 * roots are trusted, plus the PEM bundle named by SVC_TLS_CA_BUNDLE. Exit 0 when both pass, 1 otherwise.</li>
 * </ul>
 */
public final class ChartTool {

    private ChartTool() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 3 + 1 && args[0].equals("plugins")) {
            System.exit(plugins(Path.of(args[1]), Path.of(args[2]), Path.of(args[3]),
                    List.of(args).subList(4, args.length)));
        } else if (args.length == 3 && args[0].equals("probe")) {
            System.exit(probe(args[1], args[2], System.getenv("SVC_TLS_CA_BUNDLE")));
        } else {
            System.err.println("usage: ChartTool plugins <bundled-dir> <extra-dir> <out-dir> <jar>=<sha256>... | "
                    + "ChartTool probe <ready-url> <issuer>");
            System.exit(2);
        }
    }

    static int plugins(Path bundled, Path extra, Path out, List<String> jars) throws IOException {
        try (Stream<Path> walk = Files.walk(bundled)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path target = out.resolve(bundled.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        StringBuilder sums = new StringBuilder();
        int failed = 0;
        for (String spec : jars) {
            int eq = spec.indexOf('=');
            String name = eq < 0 ? spec : spec.substring(0, eq);
            String expected = eq < 0 ? "" : spec.substring(eq + 1).toLowerCase(java.util.Locale.ROOT);
            if (!name.endsWith(".jar") || name.contains("/") || !expected.matches("[0-9a-f]{64}")) {
                System.err.println("plugins: '" + spec + "' is not <name>.jar=<sha256>");
                failed++;
                continue;
            }
            Path jar = extra.resolve(name);
            if (!Files.isRegularFile(jar)) {
                System.err.println("plugins: " + name + " is listed but not in " + extra);
                failed++;
                continue;
            }
            String actual = sha256(jar);
            if (!actual.equals(expected)) {
                System.err.println("plugins: " + name + " has SHA-256 " + actual + ", not the " + expected
                        + " the values list");
                failed++;
                continue;
            }
            Files.copy(jar, out.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            sums.append(expected).append("  ").append(name).append('\n');
            System.out.println("plugins: " + name + " " + expected);
        }
        if (failed > 0) {
            return 1;
        }
        Files.writeString(out.resolve("SHA256SUMS"), sums.toString(), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        System.out.println("plugins: " + jars.size() + " extra jar(s) added to " + out);
        return 0;
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                d.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final Pattern ISSUER = Pattern.compile("\"issuer\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    static int probe(String readyUrl, String issuer, String caBundle) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .sslContext(sslContext(caBundle)).build();
        int failed = 0;
        try {
            HttpResponse<String> ready = get(http, readyUrl);
            if (ready.statusCode() == 200) {
                System.out.println("ok: " + readyUrl + " answers 200");
            } else {
                System.err.println("FAILED: " + readyUrl + " answers " + ready.statusCode() + ": " + ready.body());
                failed++;
            }
        } catch (IOException e) {
            System.err.println("FAILED: " + readyUrl + ": " + e);
            failed++;
        }
        String discovery = issuer.replaceAll("/+$", "") + "/.well-known/openid-configuration";
        try {
            HttpResponse<String> doc = get(http, discovery);
            Matcher m = ISSUER.matcher(doc.body());
            String named = m.find() ? m.group(1).replace("\\/", "/") : null;
            if (doc.statusCode() != 200) {
                System.err.println("FAILED: " + discovery + " answers " + doc.statusCode());
                failed++;
            } else if (!issuer.equals(named)) {
                System.err.println("FAILED: " + discovery + " names issuer " + named + ", not " + issuer);
                failed++;
            } else {
                System.out.println("ok: " + discovery + " names issuer " + issuer);
            }
        } catch (IOException e) {
            System.err.println("FAILED: " + discovery + ": " + e);
            failed++;
        }
        return failed == 0 ? 0 : 1;
    }

    private static HttpResponse<String> get(HttpClient http, String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(15)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The JDK's default roots, plus the certificates of a PEM bundle when one is named. */
    static SSLContext sslContext(String caBundle) throws Exception {
        if (caBundle == null || caBundle.isBlank()) {
            return SSLContext.getDefault();
        }
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        TrustManagerFactory jdk = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        jdk.init((KeyStore) null);
        int i = 0;
        for (var tm : jdk.getTrustManagers()) {
            if (tm instanceof X509TrustManager x) {
                for (X509Certificate c : x.getAcceptedIssuers()) {
                    ks.setCertificateEntry("jdk-" + i++, c);
                }
            }
        }
        byte[] pem = Files.readAllBytes(Path.of(caBundle));
        List<Certificate> extra = new ArrayList<>(CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem)));
        for (Certificate c : extra) {
            ks.setCertificateEntry("bundle-" + i++, c);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }
}
