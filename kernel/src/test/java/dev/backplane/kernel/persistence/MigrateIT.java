package dev.backplane.kernel.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Migrations as a step: {@code Main migrate} migrates the configured database and exits (a second run changes
 * nothing); a kernel with {@code db.migrate-on-start=false} refuses a schema older than it needs and starts on
 * a migrated one, or on one a newer kernel migrated further.
 */
class MigrateIT {

    @Test
    void migrateIsAStepAndReplicasWithMigrationsOffRefuseAnOlderSchema(@TempDir Path work) throws Exception {
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = ChildKernels.settings(pg, issuer, work, ChildKernels.freePort());
            env.remove("SVC_SERVER_PORT");
            env.remove("SVC_DATA_DIR");
            env.put("SVC_DB_MIGRATE_ON_START", "false");

            assertThatThrownBy(() -> TestKernel.start(work.resolve("a"), env)).as("an empty database")
                    .isInstanceOf(Database.SchemaNotReady.class).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the database schema is at version none").hasMessageContaining("first V001")
                    .hasMessageContaining("run the kernel with the argument 'migrate'");
            assertThat(tables(pg)).as("migrations off: the kernel changed nothing").isEmpty();

            String latest = latestVersion();
            String first = migrate(env, work.resolve("migrate-1.log"), 0);
            assertThat(first).contains("schema version none -> " + latest).doesNotContain(ExternalPostgres.PASSWORD);
            assertThat(query(pg, "SELECT max(installed_rank) FILTER (WHERE NOT success) IS NULL AND "
                    + "(SELECT version FROM flyway_schema_history ORDER BY installed_rank DESC LIMIT 1) = '" + latest + "' "
                    + "FROM flyway_schema_history")).isEqualTo("t");
            assertThat(migrate(env, work.resolve("migrate-2.log"), 0)).as("a second run")
                    .contains("schema version " + latest + " -> " + latest + " (0 migration(s) applied)");

            try (TestKernel k = TestKernel.start(work.resolve("b"), env)) {
                assertThat(k.get("/health/ready", null).status()).isEqualTo(200);
            }

            // a rolling upgrade's newer kernel migrated further: this one still starts, with migrations off or on
            execute(pg, "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum, "
                    + "installed_by, execution_time, success) SELECT max(installed_rank) + 1, '999', 'from the future', "
                    + "'SQL', 'V999__from_the_future.sql', 1, current_user, 1, true FROM flyway_schema_history");
            try (TestKernel k = TestKernel.start(work.resolve("c"), env)) {
                assertThat(k.get("/health/ready", null).status()).isEqualTo(200);
            }
            env.put("SVC_DB_MIGRATE_ON_START", "true");
            try (TestKernel k = TestKernel.start(work.resolve("d"), env)) {
                assertThat(k.get("/health/ready", null).status()).isEqualTo(200);
            }

            // an older schema (the newest migration undone) is refused again, naming the pending version
            execute(pg, "DELETE FROM flyway_schema_history WHERE version IN ('999', '" + latest + "')");
            env.put("SVC_DB_MIGRATE_ON_START", "false");
            assertThatThrownBy(() -> TestKernel.start(work.resolve("e"), env)).isInstanceOf(Database.SchemaNotReady.class)
                    .hasMessageContaining("the database schema is at version ")
                    .hasMessageContaining("1 more migration(s), first V" + latest);
        }
    }

    @Test
    void migrateFailsWithAClearMessageWhenTheDatabaseCannotBeReached(@TempDir Path work) throws Exception {
        Map<String, String> env = new java.util.HashMap<>();
        env.put("SVC_DB_URL", "jdbc:postgresql://127.0.0.1:" + ChildKernels.freePort() + "/nowhere?connectTimeout=2");
        env.put("SVC_DB_USER", "svc");
        env.put("SVC_DB_PASSWORD", "never-shown-42");
        env.put("SVC_DATA_DIR", work.resolve("data").toString());
        env.put("SVC_DB_CONNECT_WAIT_SECONDS", "2"); // tries three times (the default keeps trying for 30 s)
        long t0 = System.nanoTime();
        String out = migrate(env, work.resolve("migrate.log"), 1);
        assertThat(out).contains("svc kernel migrate: migrating jdbc:postgresql://127.0.0.1:").contains("failed: ")
                .doesNotContain("never-shown-42");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("gave up after the wait set")
                .isLessThan(Duration.ofSeconds(20));
    }

    /** Runs {@code Main migrate} as its own process; returns its output after checking its exit code. */
    private static String migrate(Map<String, String> env, Path log, int exit) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "dev.backplane.kernel.app.Main", "migrate").redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("migrate exits").isTrue();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isEqualTo(exit);
        return out;
    }

    /** The highest version among the kernel's migrations (SQL files and the Java ones). */
    private static String latestVersion() throws IOException {
        List<Integer> versions = new ArrayList<>(List.of(47));
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            files.map(f -> f.getFileName().toString()).filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .forEach(n -> versions.add(Integer.parseInt(n.substring(1, n.indexOf("__")))));
        }
        return String.format("%03d", versions.stream().max(Integer::compare).orElseThrow());
    }

    private static List<String> tables(ExternalPostgres pg) throws Exception {
        List<String> names = new ArrayList<>();
        try (Connection c = connect(pg); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private static String query(ExternalPostgres pg, String sql) throws Exception {
        try (Connection c = connect(pg); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void execute(ExternalPostgres pg, String sql) throws Exception {
        try (Connection c = connect(pg); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static Connection connect(ExternalPostgres pg) throws Exception {
        return DriverManager.getConnection(pg.jdbcUrl(), ExternalPostgres.USER, ExternalPostgres.PASSWORD);
    }
}
