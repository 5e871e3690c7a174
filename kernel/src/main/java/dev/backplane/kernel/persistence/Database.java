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
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;

/**
 * The one system of record. With {@code db.url} set it connects to that PostgreSQL; without it, it
 * starts an embedded PostgreSQL whose files live in {@code <data.dir>/postgres}, so state survives a
 * restart. Either way the schema is at the version the kernel needs before it serves a request: the
 * Flyway migrations run at start, or — {@code db.migrate-on-start=false}, replicas of one database whose
 * schema a pre-upgrade job migrates ({@link #migrateOnly}) — the kernel checks that none is pending.
 */
public final class Database implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Database.class.getName());
    /** The embedded server has started before its pool opens: a wait this long means something else is wrong. */
    private static final Duration EMBEDDED_CONNECT_WAIT = Duration.ofSeconds(30);
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
     * {@code connectWait} is how long a database by URL is tried at start (once a second) before start fails;
     * zero tries once.
     */
    public record Settings(Optional<String> url, String user, String password, int poolSize, Duration connectWait,
                           Path dataDir, int embeddedPort, boolean embeddedFsync, boolean migrateOnStart) {
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
            HikariDataSource ds = pool(url.get(), settings.user(), settings.password(), poolSize,
                    settings.connectWait());
            Database db = new Database(Optional.empty(), ds, "postgresql at " + redactUrl(url.get()));
            try {
                return settings.migrateOnStart() ? migrated(db) : checked(db);
            } catch (RuntimeException e) {
                db.close();
                throw e;
            }
        }
        Database db = startEmbedded(settings, poolSize);
        try {
            return migrated(db); // one process owns it: nobody else could migrate it (KernelConfig refuses it off)
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /** What {@link #migrateOnly} did: the schema version before and after, and how many migrations ran. */
    public record Migrated(String from, String to, int applied) {
    }

    /**
     * Applies the pending migrations to the configured database and closes it again, serving nothing: the
     * pre-upgrade step ({@code Main migrate}) of a deploy whose replicas start with {@code db.migrate-on-start=false}.
     */
    public static Migrated migrateOnly(Settings settings) {
        try (Database db = settings.url().isPresent()
                ? new Database(Optional.empty(), pool(settings.url().get(), settings.user(), settings.password(), 3,
                        settings.connectWait()),
                        "postgresql at " + redactUrl(settings.url().get()))
                : startEmbedded(settings, 3)) {
            Migrated result = migrate(db);
            LOG.log(Level.INFO, "migrated " + db.description + ": schema version " + result.from() + " -> "
                    + result.to() + " (" + result.applied() + " migration(s) applied)");
            return result;
        }
    }

    private static Database startEmbedded(Settings settings, int poolSize) {
        Path dir = settings.dataDir().toAbsolutePath().resolve("postgres");
        EmbeddedPostgres pg = startEmbeddedServer(dir, settings.embeddedPort(), settings.embeddedFsync());
        String jdbc = pg.getJdbcUrl("postgres", "postgres");
        HikariDataSource ds = pool(jdbc, "postgres", "", poolSize, EMBEDDED_CONNECT_WAIT);
        return new Database(Optional.of(pg), ds, "embedded postgresql in " + dir + " (port " + pg.getPort() + ")");
    }

    private static EmbeddedPostgres startEmbeddedServer(Path dir, int port, boolean fsync) {
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
        } catch (RuntimeException e) {
            if (String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("missing embedded postgres")) {
                // the container image ships without the embedded server's binaries: it runs on a database by URL
                throw new IllegalArgumentException("no database: db.url (SVC_DB_URL) is empty and this build carries no "
                        + "embedded PostgreSQL (the container image never does); set SVC_DB_URL, SVC_DB_USER and "
                        + "SVC_DB_PASSWORD (or SVC_DB_PASSWORD_FILE) to a PostgreSQL 15+ database", e);
            }
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static HikariDataSource pool(String url, String user, String password, int size, Duration connectWait) {
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
        // Hikari tries, sleeps a second, and tries again until this has passed; 1 ms is one try (0 would start the
        // pool without a connection and leave the failure to the first statement, 10 s later)
        hc.setInitializationFailTimeout(Math.max(1, connectWait.toMillis()));
        return new HikariDataSource(hc);
    }

    private static Database migrated(Database db) {
        Migrated result = migrate(db);
        LOG.log(Level.INFO, "database ready: " + db.description + "; schema version " + result.to()
                + " (" + result.applied() + " migration(s) applied)");
        return db;
    }

    private static Migrated migrate(Database db) {
        var result = flyway(db.dataSource).migrate();
        String from = result.initialSchemaVersion == null ? "none" : result.initialSchemaVersion;
        return new Migrated(from, result.targetSchemaVersion == null ? from : result.targetSchemaVersion,
                result.migrationsExecuted);
    }

    /**
     * Migrations off at start: the schema must hold every migration this kernel knows. One a newer
     * kernel applied (a rolling upgrade's first replica migrated the database) is fine — migrations
     * only add — but a pending one, or one that failed, means this kernel would run on a schema it was
     * not built for.
     */
    private static Database checked(Database db) {
        MigrationInfo[] all = flyway(db.dataSource).info().all();
        List<MigrationInfo> missing = Arrays.stream(all).filter(m -> m.getVersion() != null)
                .filter(m -> switch (m.getState()) {
                    case PENDING, IGNORED, FAILED, OUTDATED -> true;
                    default -> false;
                }).toList();
        String at = Arrays.stream(all).filter(m -> m.getState().isApplied() && m.getVersion() != null)
                .map(m -> m.getVersion().getVersion()).reduce((a, b) -> b).orElse("none");
        if (!missing.isEmpty()) {
            MigrationInfo first = missing.getFirst();
            throw new SchemaNotReady("the database schema is at version " + at + " but this kernel needs "
                    + missing.size() + " more migration(s), first V" + first.getVersion().getVersion() + " ("
                    + first.getDescription() + (first.getState() == MigrationState.FAILED ? ", recorded as failed" : "")
                    + "), and db.migrate-on-start is false: run the kernel with the argument 'migrate' "
                    + "(dev.backplane.kernel.app.Main migrate) against this database first");
        }
        LOG.log(Level.INFO, "database ready: " + db.description + "; schema version " + at
                + " (migrations are a separate step: db.migrate-on-start is false)");
        return db;
    }

    /**
     * The kernel's migrations: the SQL files, and the Java ones that must run outside a transaction
     * (a concurrent index build).
     */
    private static Flyway flyway(DataSource dataSource) {
        FluentConfiguration flyway = Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .javaMigrations(new V047RetrievalHnswIndex())
                .failOnMissingLocations(true);
        // A session-level advisory lock, not one held by an open transaction on the lock connection
        // while the migrations run on another: that open transaction deadlocks a migration doing
        // CREATE INDEX CONCURRENTLY, and a server that multiplexes connections onto one session
        // (PGlite's socket server, which tests the pgvector path) until it ends.
        flyway.getConfigurationExtension(PostgreSQLConfigurationExtension.class).setTransactionalLock(false);
        return flyway.load();
    }

    /**
     * The schema is older than this kernel needs and migrations at start are off: a configuration error
     * (an {@link IllegalArgumentException}, so {@code Main} reports it as one and exits 2).
     */
    public static final class SchemaNotReady extends IllegalArgumentException {
        SchemaNotReady(String message) {
            super(message);
        }
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
