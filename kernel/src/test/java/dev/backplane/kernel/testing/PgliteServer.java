package dev.backplane.kernel.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real pgvector over a real socket: PGlite (PostgreSQL 18 compiled to WASM, with the pgvector
 * extension) served over the PostgreSQL wire protocol on a free loopback port by
 * {@code kernel/src/test/pglite/pglite-server}, which installs the pinned npm packages into the cache
 * directory on first use. pgvector is not packaged for this machine's PostgreSQL; this is how its
 * HNSW path is tested here.
 *
 * <p>PGlite is a single PostgreSQL session: the socket server multiplexes every client connection
 * onto it, message by message, and only keeps a connection's explicit transaction to itself. The JDBC
 * URL therefore sets {@code preferQueryMode=simple}: each statement travels as one Query message with
 * its parameters inlined, which no other connection can split. With the driver's default extended
 * protocol (Parse, Bind, Execute, Sync as separate messages), two connections' unnamed statements and
 * portals interleave in the shared session ("bind message supplies 4 parameters, but prepared
 * statement "" requires 0", "portal "" cannot be run") and named ones collide ({@code S_1} twice).
 *
 * @param process the running server
 * @param port its port on 127.0.0.1
 * @param log its output
 */
public record PgliteServer(Process process, int port, Path log) implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("pglite-server listening on 127\\.0\\.0\\.1:(\\d+)");

    /** Why PGlite cannot be served here (no node or npm on the PATH), or empty when it can. */
    public static Optional<String> unavailable() {
        for (String tool : List.of("node", "npm")) {
            try {
                Process p = new ProcessBuilder(tool, "--version").redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    return Optional.of(tool + " --version failed");
                }
            } catch (IOException e) {
                return Optional.of(tool + " is not installed (" + e.getMessage() + ")");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted");
            }
        }
        return Optional.empty();
    }

    /** Installs (first time: about 10 s with npm) and starts the server; output goes to {@code logDir}. */
    public static PgliteServer start(Path logDir) throws IOException, InterruptedException {
        Path script = scriptDir().resolve("pglite-server");
        Path log = logDir.resolve("pglite-server.log");
        Files.createDirectories(logDir);
        Process process = new ProcessBuilder("bash", script.toString(), "--port", "0", "--exit-on-stdin-close")
                .redirectErrorStream(true).start();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("pglite-server-log").start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8)); PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.println(line);
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (IOException e) {
                port.completeExceptionally(e);
            }
            port.completeExceptionally(new IOException("pglite-server exited"));
        });
        try {
            return new PgliteServer(process, port.get(5, TimeUnit.MINUTES), log);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            process.destroyForcibly();
            throw new IOException("pglite-server did not start: " + e.getMessage() + "; log: " + log + "\n"
                    + (Files.exists(log) ? Files.readString(log) : ""), e);
        }
    }

    /** Where package.json, server.mjs and the install script live: set by the build, else found from here. */
    private static Path scriptDir() {
        String configured = System.getProperty("svc.pglite.dir");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        for (Path candidate : List.of(Path.of("src/test/pglite"), Path.of("kernel/src/test/pglite"))) {
            if (Files.isRegularFile(candidate.resolve("pglite-server"))) {
                return candidate.toAbsolutePath();
            }
        }
        throw new IllegalStateException("kernel/src/test/pglite not found from " + Path.of("").toAbsolutePath()
                + "; set -Dsvc.pglite.dir");
    }

    /** The URL to give the kernel (SVC_DB_URL); user {@code postgres}, any password. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?preferQueryMode=simple";
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
