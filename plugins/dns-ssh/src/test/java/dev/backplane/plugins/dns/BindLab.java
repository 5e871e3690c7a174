package dev.backplane.plugins.dns;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real BIND 9 for tests: {@code named} in the foreground on loopback high ports, with a dynamic
 * zone {@code example.test} (update-policy local: the session key signs updates), a static zone
 * {@code static.test} (for reloads), zone transfers allowed from loopback and an rndc control
 * channel with its own key. The target extras that point the connector at it are {@link #extras()}.
 *
 * @param dir the server's directory (config, zones, keys, log)
 * @param dnsPort its DNS port (TCP and UDP)
 * @param rndcPort its rndc control port
 * @param named the running server
 */
record BindLab(Path dir, int dnsPort, int rndcPort, Process named) implements AutoCloseable {

    static final String ZONE = "example.test";
    static final String STATIC_ZONE = "static.test";
    private static final List<String> BINARIES = List.of("/usr/sbin/named", "/usr/bin/named-checkconf", "/usr/bin/dig",
            "/usr/bin/nsupdate", "/usr/sbin/rndc", "/usr/sbin/rndc-confgen");

    static Optional<String> unavailable() {
        return BINARIES.stream().filter(b -> !Files.isExecutable(Path.of(b))).findFirst()
                .map(b -> b + " is not installed (Debian packages bind9, bind9-utils, bind9-dnsutils; ./test installs "
                        + "them when it runs as root)");
    }

    static BindLab start(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        run(dir, "/usr/sbin/rndc-confgen", "-a", "-c", dir.resolve("rndc.key").toString(), "-k", "rndc-key");
        Files.writeString(dir.resolve(ZONE + ".zone"), """
                $TTL 300
                @ IN SOA ns1.example.test. admin.example.test. 1 3600 600 86400 300
                @ IN NS ns1.example.test.
                ns1 IN A 192.0.2.1
                www IN A 192.0.2.10
                www IN AAAA 2001:db8::10
                mail IN MX 10 mx.example.test.
                mx IN A 192.0.2.25
                ftp IN CNAME www.example.test.
                txt IN TXT "hello"
                _sip._tcp IN SRV 10 5 5060 sip.example.test.
                """);
        Files.writeString(dir.resolve(STATIC_ZONE + ".zone"), """
                $TTL 300
                @ IN SOA ns1.static.test. admin.static.test. 1 3600 600 86400 300
                @ IN NS ns1.static.test.
                ns1 IN A 192.0.2.2
                """);
        int dnsPort = freePort();
        int rndcPort = freePort();
        Files.writeString(dir.resolve("named.conf"), """
                options {
                  directory "%1$s";
                  listen-on port %2$d { 127.0.0.1; };
                  listen-on-v6 { none; };
                  pid-file "%1$s/named.pid";
                  session-keyfile "%1$s/session.key";
                  allow-transfer { 127.0.0.1; };
                  recursion no;
                  dnssec-validation no;
                };
                include "%1$s/rndc.key";
                controls { inet 127.0.0.1 port %3$d allow { 127.0.0.1; } keys { "rndc-key"; }; };
                zone "%4$s" { type primary; file "%4$s.zone"; update-policy local; };
                zone "%5$s" { type primary; file "%5$s.zone"; };
                """.formatted(dir, dnsPort, rndcPort, ZONE, STATIC_ZONE));
        Process named = new ProcessBuilder("/usr/sbin/named", "-g", "-c", dir.resolve("named.conf").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("named.log").toFile()).start();
        BindLab lab = new BindLab(dir, dnsPort, rndcPort, named);
        lab.awaitRunning();
        return lab;
    }

    private void awaitRunning() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            if (!named.isAlive()) {
                throw new IOException("named exited: " + Files.readString(dir.resolve("named.log")));
            }
            if (Files.exists(dir.resolve("session.key")) && Files.readString(dir.resolve("named.log")).contains("running")) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        throw new IOException("named did not start: " + Files.readString(dir.resolve("named.log")));
    }

    /** A free port for both TCP and UDP on loopback. */
    private static int freePort() throws IOException {
        for (int i = 0; i < 50; i++) {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            try (DatagramSocket u = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free port");
    }

    /** The target extras that point dns-ssh at this server (besides the host key pin). */
    Map<String, Object> extras() {
        Map<String, Object> extras = new HashMap<>();
        extras.put("named_conf", dir.resolve("named.conf").toString());
        extras.put("dns_port", dnsPort);
        extras.put("nsupdate_key", dir.resolve("session.key").toString());
        extras.put("rndc_port", rndcPort);
        extras.put("rndc_key", dir.resolve("rndc.key").toString());
        return extras;
    }

    /** The RRset as the server answers it now, asked directly (not through the connector): "ttl data" lines. */
    List<String> lookup(String name, String type) throws IOException, InterruptedException {
        return run(dir, "/usr/bin/dig", "@127.0.0.1", "-p", String.valueOf(dnsPort), "+noall", "+answer", "+norecurse",
                name, type).lines().map(l -> l.split("\\s+", 5)).filter(f -> f.length == 5).map(f -> f[1] + " " + f[4])
                .toList();
    }

    private static String run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        named.destroy();
        if (!named.waitFor(10, TimeUnit.SECONDS)) {
            named.destroyForcibly();
        }
    }
}
