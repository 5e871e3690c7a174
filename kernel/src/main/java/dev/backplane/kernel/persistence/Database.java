package dev.backplane.kernel.persistence;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;

/**
 * The one system of record. With {@code db.url} set it connects to that PostgreSQL; without it, it
 * starts an embedded PostgreSQL whose files live in {@code <data.dir>/postgres}, so state survives a
 * restart. Either way the Flyway migrations run before the kernel serves a request.
 */
public final class Database implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Database.class.getName());
    /**
     * The PostgreSQL driver logs through java.util.logging, and below INFO it writes what it sends: at FINE the
     * connection URL it was given (a password in it included), at FINEST every bind value of every statement — the
     * params of a call parked for approval, which may hold a password or a value its plugin declares secret, among
     * them. Secrets never reach the log whatever level an operator turns on (the root logger at ALL included), so the
     * driver is held at INFO at the finest: its warnings and errors still show. Held in a field: java.util.logging
     * keeps loggers only weakly, and a collected logger would lose its level.
     */
    private static final java.util.logging.Logger DRIVER_LOG = java.util.logging.Logger.getLogger("org.postgresql");

    static {
        java.util.logging.Level set = DRIVER_LOG.getLevel();
        if (set == null || set.intValue() < java.util.logging.Level.INFO.intValue()) {
            DRIVER_LOG.setLevel(java.util.logging.Level.INFO); // a coarser level an operator set stays
        }
    }

    private final Optional<EmbeddedPostgres> embedded;
    private final HikariDataSource dataSource;
    private final String description;

    private Database(Optional<EmbeddedPostgres> embedded, HikariDataSource dataSource, String description) {
        this.embedded = embedded;
        this.dataSource = dataSource;
        this.description = description;
    }

    /**
     * Where the database is: a JDBC URL (with user and password), or none — then an embedded
     * PostgreSQL under {@code dataDir/postgres} on {@code embeddedPort} (0 picks a free one), flushing each
     * commit to disk when {@code embeddedFsync} (an external database's durability is its own configuration).
     */
    public record Settings(Optional<String> url, String user, String password, int poolSize, Path dataDir,
                           int embeddedPort, boolean embeddedFsync) {
        @Override
        public String toString() {
            return "Database.Settings[" + url.map(Database::redactUrl).orElse("embedded in " + dataDir)
                    + ", pool " + poolSize + "]";
        }
    }

    /** A JDBC URL with any embedded password or user-info masked, for logs and messages. */
    public static String redactUrl(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1****").replaceAll("//[^/@]*@", "//****@");
    }

    /** Reports the connection pool (active, idle, pending, timeouts, usage) into {@code registry}. */
    public void meterInto(io.micrometer.core.instrument.MeterRegistry registry) {
        dataSource.setMetricsTrackerFactory(new com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory(
                registry));
    }

    public static Database start(Settings settings) {
        Optional<String> url = settings.url();
        int poolSize = settings.poolSize();
        if (url.isPresent()) {
            HikariDataSource ds = pool(url.get(), settings.user(), settings.password(), poolSize);
            return migrated(new Database(Optional.empty(), ds, "postgresql at " + redactUrl(url.get())));
        }
        Path dir = settings.dataDir().toAbsolutePath().resolve("postgres");
        EmbeddedPostgres pg = startEmbedded(dir, settings.embeddedPort(), settings.embeddedFsync());
        String jdbc = pg.getJdbcUrl("postgres", "postgres");
        HikariDataSource ds = pool(jdbc, "postgres", "", poolSize);
        Database db = new Database(Optional.of(pg), ds, "embedded postgresql in " + dir + " (port " + pg.getPort() + ")");
        try {
            return migrated(db);
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    private static EmbeddedPostgres startEmbedded(Path dir, int port, boolean fsync) {
        try {
            Files.createDirectories(dir);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dir)
                    .setCleanDataDirectory(false)
                    // the embedded library turns synchronous_commit and fsync off; a commit the kernel answered for
                    // (an accepted event, an audit row) must be on disk, so both are PostgreSQL's defaults again
                    // (fsync off: a commit survives any process crash, PostgreSQL's included, but not the machine's)
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("fsync", fsync ? "on" : "off")
                    .setPGStartupWait(Duration.ofSeconds(60));
            if (port > 0) {
                builder.setPort(port);
            }
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static HikariDataSource pool(String url, String user, String password, int size) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        if (!user.isBlank()) {
            hc.setUsername(user);
        }
        if (!password.isBlank()) {
            hc.setPassword(password);
        }
        hc.setMaximumPoolSize(size);
        hc.setMinimumIdle(Math.min(2, size));
        hc.setPoolName("svc");
        hc.setConnectionTimeout(10_000);
        hc.setInitializationFailTimeout(30_000);
        return new HikariDataSource(hc);
    }

    private static Database migrated(Database db) {
        FluentConfiguration flyway = Flyway.configure()
                .dataSource(db.dataSource)
                .locations("classpath:db/migration")
                .failOnMissingLocations(true);
        // A session-level advisory lock, not one held by an open transaction on the lock connection
        // while the migrations run on another: that open transaction deadlocks a migration doing
        // CREATE INDEX CONCURRENTLY, and a server that multiplexes connections onto one session
        // (PGlite's socket server, which tests the pgvector path) until it ends.
        flyway.getConfigurationExtension(PostgreSQLConfigurationExtension.class).setTransactionalLock(false);
        var result = flyway.load().migrate();
        LOG.log(Level.INFO, "database ready: " + db.description + "; schema version "
                + (result.targetSchemaVersion == null ? "unchanged" : result.targetSchemaVersion)
                + " (" + result.migrationsExecuted + " migration(s) applied)");
        return db;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /** A connection outside the pool, for work that holds one for its lifetime (the change feed's LISTEN). */
    public java.sql.Connection dedicatedConnection() throws java.sql.SQLException {
        return java.sql.DriverManager.getConnection(dataSource.getJdbcUrl(), dataSource.getUsername(),
                dataSource.getPassword());
    }

    public String description() {
        return description;
    }

    /** True when a trivial query answers within {@code timeout}. */
    public boolean isReady(Duration timeout) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
            return s.execute("SELECT 1");
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "database readiness check failed: " + e.getMessage());
            return false;
        }
    }

    @Override
    public void close() {
        dataSource.close();
        embedded.ifPresent(pg -> {
            try {
                pg.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "embedded PostgreSQL did not stop cleanly: " + e.getMessage());
            }
        });
    }
}
