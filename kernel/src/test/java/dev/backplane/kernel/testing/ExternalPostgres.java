package dev.backplane.kernel.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server the kernel reaches by URL, as in production: the machine's own server binaries
 * (Debian's, under /usr/lib/postgresql/N/bin) in a throw-away cluster, with a password-authenticated
 * application user. Where no such binaries exist it falls back to a separately started embedded
 * server, still reached only by URL ({@link #systemServer()} says which; a test that promises the
 * machine's server checks it).
 */
public final class ExternalPostgres implements AutoCloseable {

    public static final String USER = "svc_app";
    public static final String PASSWORD = "s3cret-" + Long.toHexString(System.nanoTime());

    private final Path dir;
    private final Optional<Path> bin;
    private final Optional<EmbeddedPostgres> fallback;
    private final int port;
    private final String version;

    private ExternalPostgres(Path dir, Optional<Path> bin, Optional<EmbeddedPostgres> fallback, int port, String version) {
        this.dir = dir;
        this.bin = bin;
        this.fallback = fallback;
        this.port = port;
        this.version = version;
    }

    public static ExternalPostgres start() throws IOException, InterruptedException {
        Optional<Path> bin = systemBinaries();
        if (bin.isEmpty()) {
            EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
            try (var c = pg.getPostgresDatabase().getConnection(); var s = c.createStatement()) {
                s.execute("CREATE USER " + USER + " PASSWORD '" + PASSWORD + "'");
                s.execute("CREATE DATABASE svc OWNER " + USER);
            } catch (java.sql.SQLException e) {
                throw new IOException(e);
            }
            return new ExternalPostgres(null, Optional.empty(), Optional.of(pg), pg.getPort(), "embedded fallback");
        }
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "svc-pg-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            run(List.of("chown", "postgres:postgres", dir.toString()), false);
        }
        Path data = dir.resolve("data");
        Path pwfile = dir.resolve("pw");
        Files.writeString(pwfile, "bootstrap-" + System.nanoTime() + "\n");
        Files.setPosixFilePermissions(pwfile, PosixFilePermissions.fromString("rw-r--r--"));
        run(List.of(bin.get().resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres",
                "--auth-local=trust", "--auth-host=scram-sha-256", "--pwfile=" + pwfile), root);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        run(List.of(bin.get().resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "-t", "60", "-l",
                dir.resolve("log").toString(), "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1",
                "start"), root);
        Path psql = bin.get().resolve("psql");
        for (String sql : List.of("CREATE USER " + USER + " PASSWORD '" + PASSWORD + "'",
                "CREATE DATABASE svc OWNER " + USER)) {
            run(List.of(psql.toString(), "-h", dir.toString(), "-p", String.valueOf(port), "-U", "postgres",
                    "-v", "ON_ERROR_STOP=1", "-c", sql), root);
        }
        String version = bin.get().getParent().getFileName().toString();
        return new ExternalPostgres(dir, bin, Optional.empty(), port, "system PostgreSQL " + version);
    }

    private static Optional<Path> systemBinaries() {
        // the property exists so a test can show what happens on a machine without them
        Path base = Path.of(System.getProperty("svc.test.postgresql-root", "/usr/lib/postgresql"));
        if (!Files.isDirectory(base)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(base)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString()
                            .replaceAll("\\D", "0"))));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void run(List<String> command, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("command failed: " + full + "\n" + out);
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/svc";
    }

    /** Adds to {@code settings} what points a kernel at this database (URL, user, password) and returns them. */
    public Map<String, String> addTo(Map<String, String> settings) {
        settings.put("SVC_DB_URL", jdbcUrl());
        settings.put("SVC_DB_USER", USER);
        settings.put("SVC_DB_PASSWORD", PASSWORD);
        return settings;
    }

    public String describe() {
        return version;
    }

    /** True for the machine's own server binaries; false for the embedded fallback. */
    public boolean systemServer() {
        return bin.isPresent();
    }

    /** The major version of the machine's binaries this server runs ("15"); empty for the fallback. */
    public Optional<String> systemMajorVersion() {
        return bin.map(b -> b.getParent().getFileName().toString());
    }

    @Override
    public void close() throws Exception {
        if (fallback.isPresent()) {
            fallback.get().close();
            return;
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        run(List.of(bin.orElseThrow().resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m",
                "fast", "-w", "stop"), root);
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
