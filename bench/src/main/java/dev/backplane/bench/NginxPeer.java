package dev.backplane.bench;

import dev.backplane.kernel.testing.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's nginx as a reverse proxy in front of a loopback target: the floor any gateway pays for one hop, run beside
 * the backplane in {@link DispatchBench}. It runs as a child process with a config generated in a temp dir (loopback
 * high port, an {@code upstream} with {@code keepalive} and HTTP/1.1 to the target, no access log; the error log, pid
 * and temp paths in that dir, so nothing root-owned is written), and is stopped and its dir deleted by {@link #close},
 * or by a shutdown hook when the JVM is stopped first.
 */
final class NginxPeer implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/sbin/nginx");

    private final Process process;
    private final Path dir;
    private final int port;
    private final Thread hook;

    private NginxPeer(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
        this.hook = new Thread(this::stop, "nginx-peer-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** nginx proxying 127.0.0.1:{@code targetPort}, listening; empty (and says why) where the binary is missing. */
    static Optional<NginxPeer> start(int targetPort) throws InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            System.out.println("nginx peer skipped: " + BINARY + " is not installed (Debian's nginx; bin/test-deps.sh "
                    + "installs it)");
            return Optional.empty();
        }
        Path dir = TempDirs.create("svc-dispatch-nginx");
        NginxPeer peer = null;
        try {
            int port = freePort();
            Path conf = Files.writeString(dir.resolve("nginx.conf"), config(dir, port, targetPort));
            // -e: the compiled-in error log is opened before the config is read; -p: no relative path leaves the dir
            Process p = new ProcessBuilder(BINARY.toString(), "-p", dir + "/", "-e", dir.resolve("error.log").toString(),
                    "-c", conf.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile())
                    .start();
            peer = new NginxPeer(p, dir, port);
            peer.awaitListening();
            String version = new String(new ProcessBuilder(BINARY.toString(), "-v").redirectErrorStream(true).start()
                    .getInputStream().readAllBytes()).trim();
            System.out.println("nginx peer: " + version + ", one worker, keep-alive to the target, on 127.0.0.1:" + port);
            return Optional.of(peer);
        } catch (IOException | RuntimeException e) {
            if (peer != null) {
                peer.close();
            } else {
                TempDirs.delete(dir);
            }
            throw new IllegalStateException("nginx peer did not start: " + e.getMessage(), e);
        }
    }

    int port() {
        return port;
    }

    private static String config(Path dir, int port, int targetPort) {
        return """
                worker_processes 1;
                daemon off;
                master_process on;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 4096; }
                http {
                    access_log off;
                    client_body_temp_path %1$s/client_body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    upstream target {
                        server 127.0.0.1:%3$d;
                        keepalive 32;
                    }
                    server {
                        listen 127.0.0.1:%2$d;
                        location / {
                            proxy_pass http://target;
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                        }
                    }
                }
                """.formatted(dir, port, targetPort);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void awaitListening() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("nginx exited with " + process.exitValue() + ": " + logs());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("nginx not listening on " + port + " after 15 s: " + logs());
    }

    private String logs() {
        StringBuilder out = new StringBuilder();
        for (String name : List.of("stdout.log", "error.log")) {
            try {
                Path f = dir.resolve(name);
                if (Files.exists(f)) {
                    out.append(Files.readString(f).strip()).append(' ');
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out.toString().strip();
    }

    /** TERM to the master (it stops its worker), KILL to all of them after 5 s; then the temp dir goes. */
    private void stop() {
        List<ProcessHandle> workers = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workers.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        TempDirs.delete(dir);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            return; // the hook stops it
        }
        stop();
    }
}
