package dev.backplane.image;

import dev.backplane.kernel.testing.ExternalPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Debian's PostgreSQL client programs of the server's own major version ({@code pg_dump}, {@code pg_restore}), run
 * as an operator would, over TCP as the application user; and row reads that compare two databases.
 */
final class PgClient {

    private final ExternalPostgres pg;
    private final Path bin;

    PgClient(ExternalPostgres pg) {
        this.pg = pg;
        this.bin = Path.of("/usr/lib/postgresql", pg.systemMajorVersion().orElseThrow(), "bin");
    }

    String program(String name) {
        return bin.resolve(name).toString();
    }

    /** The command line of {@code program} against this server's database, as the application user. */
    List<String> command(String program, String... args) {
        List<String> cmd = new ArrayList<>(List.of(program(program), "-h", "127.0.0.1", "-p",
                String.valueOf(port()), "-U", ExternalPostgres.USER));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Runs a command with the password in the environment (never on the command line); returns its output. */
    static String run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("PGPASSWORD", ExternalPostgres.PASSWORD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
        }
        return out;
    }

    int port() {
        String url = pg.jdbcUrl();
        return Integer.parseInt(url.substring(url.lastIndexOf(':') + 1, url.lastIndexOf('/')));
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(pg.jdbcUrl(), ExternalPostgres.USER, ExternalPostgres.PASSWORD);
    }

    /** Every row of {@code table} as PostgreSQL's text of the row, keyed by {@code key}'s text, in key order. */
    Map<String, String> rows(String table, String key) throws SQLException {
        return rows(table, key, "t::text");
    }

    /** As {@link #rows(String, String)}, each row as {@code row} (an expression over {@code t}) gives it. */
    Map<String, String> rows(String table, String key, String row) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = connect(); ResultSet rs = c.createStatement().executeQuery("SELECT (" + key
                + ")::text, " + row + " FROM " + table + " t ORDER BY 1")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    /** Every row of {@code table} as text, sorted: two tables with equal answers hold the same rows. */
    List<String> rows(String table) throws SQLException {
        return List.copyOf(rows(table, "t::text").values());
    }

    long count(String sql) throws SQLException {
        try (Connection c = connect(); ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
