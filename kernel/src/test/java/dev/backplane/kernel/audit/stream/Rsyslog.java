package dev.backplane.kernel.audit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.TempDirs;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * A real rsyslogd (Debian's, with its GnuTLS driver) as a child process, receiving RFC 5425 syslog over TLS on a
 * free loopback port with a certificate from a {@link TestCa}, writing each message it receives as one line of
 * {@code out.log}: app-name, msgid, structured data and message, tab-separated. Stopped (SIGKILL) and started
 * again on the same port by the tests; its directory is deleted on close.
 */
final class Rsyslog implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/sbin/rsyslogd");
    /** rsyslog-gnutls's driver, under the machine's multiarch directory ({@code /usr/lib/x86_64-linux-gnu}, ...). */
    static final Path TLS_DRIVER = tlsDriver();
    private final Path dir;
    private final TestCa ca;
    private final int port;
    private Process process;

    private Rsyslog(Path dir, TestCa ca, int port) {
        this.dir = dir;
        this.ca = ca;
        this.port = port;
    }

    private static Path tlsDriver() {
        try (var dirs = Files.newDirectoryStream(Path.of("/usr/lib"), "*-linux-gnu*")) {
            for (Path dir : dirs) {
                Path driver = dir.resolve("rsyslog/lmnsd_gtls.so");
                if (Files.exists(driver)) {
                    return driver;
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /usr/lib: not installed
        }
        return Path.of("/usr/lib/x86_64-linux-gnu/rsyslog/lmnsd_gtls.so");
    }

    static void assumeInstalled() {
        Assumptions.assumeTrue(Files.isExecutable(BINARY) && Files.exists(TLS_DRIVER), "rsyslog and rsyslog-gnutls "
                + "are not installed (bin/test-deps.sh installs them)");
    }

    /** An rsyslogd with a fresh CA whose server certificate names {@code san} (keytool's form), started. */
    static Rsyslog start(String san) throws Exception {
        assumeInstalled();
        Path dir = TempDirs.create("svc-rsyslog");
        Rsyslog r = new Rsyslog(dir, TestCa.create(dir.resolve("tls"), "svc-test-ca", san), ChildKernels.freePort());
        r.start();
        return r;
    }

    TestCa ca() {
        return ca;
    }

    int port() {
        return port;
    }

    void start() throws IOException, InterruptedException {
        Path work = Files.createDirectories(dir.resolve("work"));
        Path conf = dir.resolve("rsyslog.conf");
        Files.writeString(conf, """
                global(workDirectory="%1$s" maxMessageSize="64k"
                       defaultNetstreamDriver="gtls"
                       defaultNetstreamDriverCAFile="%2$s"
                       defaultNetstreamDriverCertFile="%3$s"
                       defaultNetstreamDriverKeyFile="%4$s")
                module(load="imtcp" streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon")
                input(type="imtcp" address="127.0.0.1" port="%5$d")
                template(name="fields" type="string" string="%%app-name%%\\t%%msgid%%\\t%%structured-data%%\\t%%msg%%\\n")
                action(type="omfile" file="%6$s" template="fields")
                """.formatted(work, ca.ca(), ca.cert(), ca.key(), port, dir.resolve("out.log")));
        process = new ProcessBuilder(BINARY.toString(), "-n", "-iNONE", "-f", conf.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("rsyslogd.log")
                        .toFile())).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                assertThat(process.isAlive()).as("rsyslogd running: " + log()).isTrue();
                assertThat(System.nanoTime()).as("rsyslogd listening within 30 s: " + log()).isLessThan(deadline);
                Thread.sleep(50);
            }
        }
    }

    /** SIGKILL: whatever it had not written is gone, as with a receiver that crashes. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Each received message as its fields: app-name, msgid, structured data, message. */
    List<String[]> messages() throws IOException {
        Path out = dir.resolve("out.log");
        if (!Files.exists(out)) {
            return List.of();
        }
        return Files.readAllLines(out, StandardCharsets.UTF_8).stream().map(l -> l.split("\t", 4)).toList();
    }

    String log() {
        try {
            Path log = dir.resolve("rsyslogd.log");
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            kill();
        }
        TempDirs.delete(dir);
    }
}
