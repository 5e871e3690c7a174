package dev.backplane.plugins.ssh;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenSSH server for tests: {@code /usr/sbin/sshd} on a loopback high port with a throw-away
 * host key, authorizing two throw-away client keys (one encrypted with {@link #PASSPHRASE}) for the
 * user running the tests. Optionally every session runs a ForceCommand instead of what the client
 * asked (a slow command for timeout tests, a wrapper that enters a network namespace).
 *
 * @param dir the lab's directory (keys, config, log)
 * @param port sshd's port on loopback
 * @param sshd the running server
 */
public record SshLab(Path dir, int port, Process sshd) implements AutoCloseable {

    public static final String SSHD = "/usr/sbin/sshd";
    public static final String KEYGEN = "/usr/bin/ssh-keygen";
    public static final String PASSPHRASE = "correct horse battery";

    /** Why the lab cannot run here, if it cannot (the tests then skip and say so). */
    public static Optional<String> unavailable() {
        for (String binary : List.of(SSHD, KEYGEN)) {
            if (!Files.isExecutable(Path.of(binary))) {
                return Optional.of(binary + " is not installed (Debian package openssh-server; ./test installs it "
                        + "when it runs as root)");
            }
        }
        return Optional.empty();
    }

    public static SshLab start(Path dir) throws IOException, InterruptedException {
        return start(dir, Optional.empty());
    }

    public static SshLab start(Path dir, Optional<String> forceCommand) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        keygen(dir.resolve("host_key"), "");
        keygen(dir.resolve("client_key"), "");
        keygen(dir.resolve("client_key_encrypted"), PASSPHRASE);
        keygen(dir.resolve("stranger_key"), "");
        Files.writeString(dir.resolve("authorized_keys"), Files.readString(dir.resolve("client_key.pub"))
                + Files.readString(dir.resolve("client_key_encrypted.pub")));
        Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation directory
        int port = freePort();
        List<String> config = new ArrayList<>(List.of("Port " + port, "ListenAddress 127.0.0.1",
                "HostKey " + dir.resolve("host_key"), "PidFile " + dir.resolve("sshd.pid"),
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"), "StrictModes no", "UsePAM no",
                "PasswordAuthentication no", "KbdInteractiveAuthentication no", "PermitRootLogin prohibit-password",
                "MaxStartups 100", "MaxSessions 100", "LogLevel VERBOSE"));
        forceCommand.ifPresent(c -> config.add("ForceCommand " + c));
        Path file = dir.resolve("sshd_config");
        Files.write(file, config);
        Process sshd = new ProcessBuilder(SSHD, "-D", "-e", "-f", file.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("sshd.log").toFile()).start();
        SshLab lab = new SshLab(dir, port, sshd);
        lab.awaitListening();
        return lab;
    }

    private static void keygen(Path key, String passphrase) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(KEYGEN, "-q", "-t", "ecdsa", "-b", "256", "-N", passphrase, "-C", "svc-test",
                "-f", key.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException("ssh-keygen failed: " + out);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void awaitListening() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            if (!sshd.isAlive()) {
                throw new IOException("sshd exited: " + log());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
        throw new IOException("sshd did not listen on " + port + ": " + log());
    }

    /** The login user: whoever runs the tests (sshd authorizes the lab's keys for it). */
    public String user() {
        return System.getProperty("user.name");
    }

    /** The host key as an OpenSSH public key line, for {@code extras.ssh_host_key}. */
    public String hostKeyLine() throws IOException {
        return Files.readString(dir.resolve("host_key.pub")).strip();
    }

    /** A public key line of a key this server does not have. */
    public String strangerKeyLine() throws IOException {
        return Files.readString(dir.resolve("stranger_key.pub")).strip();
    }

    public String privateKey() throws IOException {
        return Files.readString(dir.resolve("client_key"));
    }

    public String encryptedPrivateKey() throws IOException {
        return Files.readString(dir.resolve("client_key_encrypted"));
    }

    /** A key the server does not authorize. */
    public String strangerPrivateKey() throws IOException {
        return Files.readString(dir.resolve("stranger_key"));
    }

    /** How many logins the server accepted so far (from its log). */
    public long acceptedLogins() throws IOException {
        return log().lines().filter(l -> l.contains("Accepted publickey")).count();
    }

    public String log() throws IOException {
        Path log = dir.resolve("sshd.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Override
    public void close() throws InterruptedException, IOException {
        sshd.destroy();
        if (!sshd.waitFor(5, TimeUnit.SECONDS)) {
            sshd.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        // the lab's directory (keys, config, log) is its own: a test run leaves nothing behind
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
